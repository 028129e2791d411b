import { defineBridge, provide } from '@vigie/kernel';
import { eventIntakeRef, recentEventsRef } from '@vigie/events';
import { HeartbeatEngine } from './heartbeat-engine.js';
import { HeartbeatRepository } from './heartbeat-repository.js';
import { HeartbeatService } from './heartbeat-service.js';
import { HeartbeatStateRepository } from './heartbeat-state.js';
import { heartbeatServiceRef } from './refs.js';

/** The heartbeats feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const heartbeatsBridge = defineBridge({
  imports: [eventIntakeRef, recentEventsRef],
  singletons: [HeartbeatRepository, HeartbeatService, HeartbeatStateRepository, HeartbeatEngine],
  exports: [provide(heartbeatServiceRef, HeartbeatService)],
});
