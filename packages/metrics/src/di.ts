import { defineBridge } from '@vigie/kernel';
import { MetricsRegistry } from './metrics-registry.js';

/** The metrics feature's class graph (tsyringe) and what awilix sees of it. */
export const metricsBridge = defineBridge({
  singletons: [MetricsRegistry],
  exports: { metricsRegistry: MetricsRegistry },
});
