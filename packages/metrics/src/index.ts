export { metricsFeature } from './feature.js';
export { MetricsRegistry } from './metrics-registry.js';
export { metricsConfigSchema, type MetricsConfig } from './schemas.js';
