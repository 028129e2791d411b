export {
  Observations,
  observedJob,
  observedStore,
  type HttpObservation,
  type JobObservation,
  type PipelineObservation,
  type StoreObservation,
} from './observations.js';
export { HealthRegistry, type HealthCheck, type HealthResult } from './health.js';
