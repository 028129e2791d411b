import { defineBridge } from '@vigie/kernel';
import { BroadcastMessageRepository } from './broadcast-message-repository.js';
import { BroadcastMessageService } from './broadcast-message-service.js';

/** The broadcast feature's class graph (tsyringe) and what awilix sees of it. */
export const broadcastBridge = defineBridge({
  singletons: [BroadcastMessageRepository, BroadcastMessageService],
  exports: { broadcastMessageService: BroadcastMessageService },
});
