import { defineBridge } from '@vigie/kernel';
import { HeartbeatEngine, HeartbeatEngineTokens } from './heartbeat-engine.js';
import { HeartbeatRepository } from './heartbeat-repository.js';
import { HeartbeatService } from './heartbeat-service.js';
import { HeartbeatStateRepository } from './heartbeat-state.js';

/** The heartbeats feature's class graph (tsyringe) and what awilix sees of it. */
export const heartbeatsBridge = defineBridge({
  imports: { eventIntake: HeartbeatEngineTokens.EventIntake },
  singletons: [HeartbeatRepository, HeartbeatService, HeartbeatStateRepository, HeartbeatEngine],
  exports: { heartbeatService: HeartbeatService, heartbeatEngine: HeartbeatEngine },
});
