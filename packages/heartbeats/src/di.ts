import { defineBridge } from '@vigie/kernel';
import { HeartbeatRepository } from './heartbeat-repository.js';
import { HeartbeatService } from './heartbeat-service.js';

/** The heartbeats feature's class graph (tsyringe) and what awilix sees of it. */
export const heartbeatsBridge = defineBridge({
  singletons: [HeartbeatRepository, HeartbeatService],
  exports: { heartbeatService: HeartbeatService },
});
