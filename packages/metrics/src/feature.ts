import { defineFeature } from '@vigie/kernel';
import { metricsBridge } from './di.js';
import { MetricsRegistry } from './metrics-registry.js';
import { metricsRoutes } from './routes.js';
import { metricsConfig, type MetricsConfig } from './schemas.js';

/** Prometheus metrics at `GET /metrics`, fed by the kernel's observation hooks. */
export const metricsFeature = defineFeature<MetricsConfig>({
  id: 'metrics',
  kernel: '^0.1.0',
  config: metricsConfig,
  register(f) {
    f.use(metricsBridge);
    for (const route of metricsRoutes(f.config.token)) f.route(route);
    f.onStart((container) => container.resolve(MetricsRegistry).listen());
  },
});
