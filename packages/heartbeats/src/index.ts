export { heartbeatsFeature } from './feature.js';
export { heartbeatsConfigSchema, type HeartbeatsConfig } from './config.js';
export { heartbeatAlarmResource, heartbeatId, type HeartbeatPattern } from './heartbeat-id.js';
export { HeartbeatService } from './heartbeat-service.js';
export type { Heartbeat, HeartbeatInput } from './schemas.js';
export type { HeartbeatRecord } from './heartbeat-repository.js';
export { expectedIntervalPattern } from './schemas.js';
export { HeartbeatEngine, heartbeatComponent, heartbeatConnector } from './heartbeat-engine.js';
export type { HeartbeatState } from './heartbeat-state.js';
