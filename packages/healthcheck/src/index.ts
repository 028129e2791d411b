export { healthcheckFeature, healthcheckNames } from './feature.js';
export { healthcheckConfigSchema, type HealthcheckConfig } from './config.js';
export { serviceIds, serviceOf, parseCriticals, type ServiceId, type HealthSummary, HealthSummaryService } from './summary.js';
export { probeRoutingKey } from './amqp-probe.js';
export { beatCollection, beatEverySeconds, stalledAfterSeconds } from './engine-beat.js';
