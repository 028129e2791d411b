import type { HealthRegistry, Observations } from '@vigie/observability';
import type { Clock } from './clock.js';
import type { EventBus } from './event-bus.js';
import type { Extensions, RouteCatalog } from './feature.js';
import type { StreamLimits } from './http/stream-limits.js';
import type { Logger } from './log.js';
import { serviceRef } from './refs.js';
import type { Scheduler } from './scheduler/port.js';
import type { FeatureStore, StoreProbe } from './store/owned-store.js';

/** Input bounds the kernel applies and features reuse (`kernelRefs.inputLimits`). */
export interface InputLimits {
  /** How deep objects and arrays may nest in a JSON text (`[server] json_max_depth`). */
  readonly jsonMaxDepth: number;
}

/**
 * The kernel's services, visible to every feature without a declaration. `logger`, `eventBus`, `extensions`,
 * `featureId` and `store` are the feature's own (a child logger, its view of the bus, the contributions to its
 * extension points, the collections it owns). The feature's configuration is `featureConfig(schema).ref`.
 */
export const kernelRefs = {
  /** The feature's view of the store: only the collections it declared with `f.collection`. */
  store: serviceRef<FeatureStore>('kernel.store'),
  /** Ping, list and read-check any collection, for the database health check. */
  storeProbe: serviceRef<StoreProbe>('kernel.storeProbe'),
  clock: serviceRef<Clock>('kernel.clock'),
  logger: serviceRef<Logger>('kernel.logger'),
  eventBus: serviceRef<EventBus>('kernel.eventBus'),
  scheduler: serviceRef<Scheduler>('kernel.scheduler'),
  health: serviceRef<HealthRegistry>('kernel.health'),
  featureId: serviceRef<string>('kernel.featureId'),
  installDir: serviceRef<string>('kernel.installDir'),
  /** Directory for the installation's data files. */
  dataDir: serviceRef<string>('kernel.dataDir'),
  /** The environment variables the kernel was given. */
  env: serviceRef<Readonly<Record<string, string | undefined>>>('kernel.env'),
  extensions: serviceRef<Extensions>('kernel.extensions'),
  /** The server's bounds on input (`[server] json_max_depth`), for input a feature reads itself. */
  inputLimits: serviceRef<InputLimits>('kernel.inputLimits'),
  /** The server's bounds on server-sent event streams (`[server] stream_*`). */
  streamLimits: serviceRef<StreamLimits>('kernel.streamLimits'),
  /** The kernel's observation hooks (requests, store operations, job runs, pipeline progress). */
  observations: serviceRef<Observations>('kernel.observations'),
  /** Every composed route, for documentation features (OpenAPI). */
  routeCatalog: serviceRef<RouteCatalog>('kernel.routeCatalog'),
} as const;

/** The id under which each feature's scope holds its own configuration slice (see `featureConfig`). */
export const configServiceId = 'kernel.config';

/** Every id the kernel provides in a feature's scope. */
export const kernelServiceIds: ReadonlySet<string> = new Set([...Object.values(kernelRefs).map((ref) => ref.id), configServiceId]);
