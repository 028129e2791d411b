import { boolean, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';

/** `[metrics]` of `etc/webserver.conf`. */
export const metricsConfigSchema = object({
  /**
   * When set, `GET /metrics` answers only `Authorization: Bearer <token>` (what Prometheus' `authorization`
   * scrape setting sends) instead of the usual credentials. Prefer `VIGIE_METRICS__TOKEN` to writing it in a file.
   */
  token: string().trim().min(16, 'token must be at least 16 characters').optional(),
  /** Node.js process metrics (CPU, memory, event loop lag, handles) next to Vigie's own. */
  process: boolean().default(true),
});

export type MetricsConfig = InferType<typeof metricsConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const metricsConfig = featureConfig(metricsConfigSchema);
