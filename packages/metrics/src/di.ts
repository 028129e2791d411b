import { defineBridge } from '@vigie/kernel';
import { MetricsRegistry } from './metrics-registry.js';

/** The metrics feature's class graph (tsyringe). */
export const metricsBridge = defineBridge({
  singletons: [MetricsRegistry],
});
