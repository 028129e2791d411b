import { defineBridge, provide } from '@vigie/kernel';
import { BroadcastMessageRepository } from './broadcast-message-repository.js';
import { BroadcastMessageService } from './broadcast-message-service.js';
import { broadcastMessageServiceRef } from './refs.js';

/** The broadcast feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const broadcastBridge = defineBridge({
  singletons: [BroadcastMessageRepository, BroadcastMessageService],
  exports: [provide(broadcastMessageServiceRef, BroadcastMessageService)],
});
