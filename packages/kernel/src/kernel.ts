import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HealthRegistry, Observations, observedJob, observedStore } from '@vigie/observability';
import { asFunction, asValue, createContainer, InjectionMode, type AwilixContainer } from 'awilix';
import { ObjectSchema, ValidationError, type Schema } from 'yup';
import type { Authenticator } from './auth.js';
import type { AuditTrail } from './audit.js';
import { clientOriginReader } from './http/client-origin.js';
import { systemClock, type Clock } from './clock.js';
import { ConfigFiles, type ConfigOverrides } from './config/ini.js';
import { logConfigSchema, serverConfigSchema, type ServerConfig } from './config/kernel-config.js';
import type { DiBridge } from './di/bridge.js';
import { ContainerScope } from './di/scope.js';
import { ErrorCodes, VigieError } from './errors.js';
import { EventBus } from './event-bus.js';
import { configServiceId, kernelRefs } from './kernel-refs.js';
import type { AnyEventRef, AnyServiceRef, ExtensionPointRef, FeatureScope } from './refs.js';
import type {
  AnyFeature,
  ErrorWording,
  Extensions,
  FeatureRegistrar,
  HealthCheckDefinition,
  JobDefinition,
  KoaRouterLike,
  LifecycleHook,
  RouteDefinition,
  RouterOptions,
  RouterRouteEntry,
} from './feature.js';
import type { HttpServer, HttpServerFactory, ListeningAddress, MountedRoute, MountedRouter } from './http/port.js';
import type { InputLimits } from './kernel-refs.js';
import type { StreamLimits } from './http/stream-limits.js';
import { createLogger, type Logger } from './log.js';
import { declarationProblems, exportedIds, orderFeatures, routerEntries, routerRoutes, type FeatureDeclarations } from './composition.js';
import { OwnedStore, storeProbe, type CollectionOwners } from './store/owned-store.js';
import type { SchedulerEngine, SchedulerFactory } from './scheduler/port.js';
import type { IndexSpec, StoreAdapter, StoreFactory } from './store/port.js';

export interface KernelOptions {
  features: readonly AnyFeature[];
  /** Installation directory: configuration under `etc/`, data under `var/lib/`. */
  installDir: string;
  /** Environment for `VIGIE_<SECTION>__<KEY>` overrides; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  configOverrides?: ConfigOverrides;
  store: StoreFactory;
  /** The scheduler, built over the store adapter's job store (`agendaSchedulerFactory()` of `@vigie/scheduler-agenda`). */
  scheduler: SchedulerFactory;
  /** The HTTP server the features' routes run on (`koaHttpServer()` of `@vigie/kernel-http`). */
  http: HttpServerFactory;
  clock?: Clock;
  /** A logger to use instead of one built from `[log]`. */
  logger?: Logger;
  /** Used only when no composed feature provides an authenticator (tests). */
  authenticator?: Authenticator;
}

interface FeatureRecord extends FeatureDeclarations {
  config: unknown;
  logger: Logger;
  services: Map<string, { factory: (scope: FeatureScope) => unknown; exported: boolean }>;
  bridges: DiBridge[];
  /** Services and events of other features this one declared it consumes (bridge imports included). */
  consumed: { ref: AnyServiceRef | AnyEventRef; via: 'bridge' | 'consume' }[];
  /** Ids of the domain events this feature owns. */
  events: Set<string>;
  /** The collections this feature owns, with their indexes. */
  collections: Map<string, readonly IndexSpec[]>;
  routes: RouteDefinition[];
  routers: { router: KoaRouterLike; options: RouterOptions }[];
  jobs: JobDefinition<unknown>[];
  healthChecks: HealthCheckDefinition[];
  wording: ErrorWording | undefined;
  extensionPoints: Set<string>;
  contributions: { point: ExtensionPointRef<unknown>; factory: (scope: FeatureScope) => unknown }[];
  authenticator: ((scope: FeatureScope) => Authenticator) | undefined;
  auditTrail: ((scope: FeatureScope) => AuditTrail) | undefined;
  hooks: { init: LifecycleHook[]; start: LifecycleHook[]; beforeShutdown: LifecycleHook[]; shutdown: LifecycleHook[] };
  container?: AwilixContainer;
  scope?: ContainerScope;
}

type Phase = 'composed' | 'initialised' | 'started' | 'stopping' | 'stopped';

/**
 * A configuration section checked by its schema: the cast values, or undefined once every problem is in `problems`
 * (unknown keys, so that typos are caught, and what the schema refuses). Configuration is the operator's, not a
 * client's: the input bounds of request bodies do not apply.
 */
function sectionValues<T>(schema: Schema<T>, raw: Record<string, string>, where: string, problems: string[]): T | undefined {
  const known = schema instanceof ObjectSchema ? new Set(Object.keys(schema.fields)) : undefined;
  const unknown = known ? Object.keys(raw).filter((key) => !known.has(key)) : [];
  for (const key of unknown) problems.push(`${where}: unknown key ${key}`);
  try {
    const values = schema.validateSync(raw, { abortEarly: false });
    return unknown.length > 0 ? undefined : values;
  } catch (err) {
    const refused = err instanceof ValidationError || (err as { name?: string }).name === 'ValidationError' ? (err as ValidationError) : undefined;
    const messages = refused ? (refused.inner.length > 0 ? refused.inner.flatMap((e) => e.errors) : refused.errors) : [String(err)];
    for (const message of messages) problems.push(`${where}: ${message}`);
    return undefined;
  }
}

async function withTimeout<T>(work: Promise<T> | T, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve(work),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The Vigie kernel: composes features, checks the composition at construction (every problem reported at
 * once), then runs the lifecycle init → start → beforeShutdown → shutdown.
 */
export class Kernel {
  readonly installDir: string;
  readonly dataDir: string;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly eventBus = new EventBus();
  readonly health = new HealthRegistry();
  /** Where the kernel reports requests, store operations and job runs (for metrics). */
  readonly observations = new Observations();
  readonly config: ConfigFiles;
  readonly serverConfig: ServerConfig;
  readonly #options: KernelOptions;
  readonly #records: FeatureRecord[];
  /** Collection ⇒ owning feature id (or `kernel`). */
  #collectionOwners: CollectionOwners = new Map();
  readonly #accessLog: boolean;
  #phase: Phase = 'composed';
  #adapter?: StoreAdapter;
  #scheduler?: SchedulerEngine;
  #authenticator?: Authenticator;
  #auditTrail?: AuditTrail;
  #http?: HttpServer;
  #address?: ListeningAddress;
  #initPromise?: Promise<void>;
  #stopPromise?: Promise<void>;
  #signalsInstalled = false;

  constructor(options: KernelOptions) {
    this.#options = options;
    this.installDir = resolve(options.installDir);
    this.dataDir = join(this.installDir, 'var', 'lib');
    this.clock = options.clock ?? systemClock;
    this.config = new ConfigFiles(join(this.installDir, 'etc'), options.env ?? process.env, options.configOverrides);
    const problems: string[] = [];

    const kernelSection = <T>(section: string, schema: Schema<T>): T | undefined =>
      sectionValues(schema, this.config.section('webserver.conf', section), `config [${section}] (webserver.conf)`, problems);
    const server = kernelSection('server', serverConfigSchema);
    const log = kernelSection('log', logConfigSchema);
    this.serverConfig = server ?? serverConfigSchema.getDefault();
    this.logger = options.logger ?? createLogger({ level: log?.level ?? 'info' });
    this.#accessLog = log?.access ?? false;

    const ordered = orderFeatures(options.features, problems);
    this.#records = [];
    for (const feature of ordered) {
      const record = this.#configure(feature, problems);
      if (record) this.#records.push(record);
    }
    for (const record of this.#records) this.#register(record, problems);
    this.#collectionOwners = declarationProblems(this.#records, problems);
    if (problems.length > 0) {
      throw new VigieError(ErrorCodes.InvalidComposition, `Vigie cannot start:\n  - ${problems.join('\n  - ')}`, { details: problems });
    }
  }

  #configure(feature: AnyFeature, problems: string[]): FeatureRecord | undefined {
    let config: unknown = {};
    if (feature.config) {
      const file = feature.config.file ?? 'webserver.conf';
      const section = feature.config.section ?? feature.id;
      config = sectionValues(feature.config.schema, this.config.section(file, section), `config [${section}] (${file}) of feature ${feature.id}`, problems);
      if (config === undefined) return undefined;
    }
    return {
      feature,
      config,
      logger: this.logger.child({ feature: feature.id }),
      services: new Map(),
      bridges: [],
      consumed: [],
      events: new Set(),
      collections: new Map(),
      routes: [],
      routers: [],
      jobs: [],
      healthChecks: [],
      wording: undefined,
      extensionPoints: new Set(),
      contributions: [],
      authenticator: undefined,
      auditTrail: undefined,
      hooks: { init: [], start: [], beforeShutdown: [], shutdown: [] },
    };
  }

  #register(record: FeatureRecord, problems: string[]): void {
    const id = record.feature.id;
    const registrar: FeatureRegistrar<unknown> = {
      id,
      config: record.config,
      logger: record.logger,
      service: (ref, factory, options) => {
        if (record.services.has(ref.id)) problems.push(`feature ${id} declares service ${ref.id} twice`);
        record.services.set(ref.id, { factory, exported: options?.export === true });
      },
      use: (bridge) => {
        record.bridges.push(bridge);
        for (const ref of bridge.spec.imports ?? []) record.consumed.push({ ref, via: 'bridge' });
      },
      consume: (...refs) => {
        for (const ref of refs) record.consumed.push({ ref, via: 'consume' });
      },
      event: (ref) => {
        record.events.add(ref.id);
      },
      collection: ({ name }, options) => {
        if (record.collections.has(name)) problems.push(`feature ${id} declares collection ${name} twice`);
        record.collections.set(name, options?.indexes ?? []);
      },
      route: (route) => {
        if (route.body === false && route.requestSchema) problems.push(`feature ${id}: route ${route.method} ${String(route.path)} reads no body (body: false), so its schema is requestDoc, not requestSchema`);
        if (route.prepareBody && !route.requestSchema) problems.push(`feature ${id}: route ${route.method} ${String(route.path)} prepares a body it has no requestSchema to validate`);
        record.routes.push(route);
      },
      router: (router, options) => {
        if (typeof router?.routes !== 'function' || typeof router.match !== 'function' || !Array.isArray(router.stack)) {
          problems.push(`feature ${id}: router() needs a @koa/router Router`);
          return;
        }
        record.routers.push({ router, options: options ?? {} });
      },
      job: (job) => {
        record.jobs.push(job as JobDefinition<unknown>);
      },
      healthCheck: (check) => {
        record.healthChecks.push(check);
      },
      errors: (wording) => {
        record.wording = { ...record.wording, ...wording };
      },
      extensionPoint: (point) => {
        record.extensionPoints.add(point.id);
      },
      extend: (point, factory) => {
        record.contributions.push({ point: point as ExtensionPointRef<unknown>, factory });
      },
      authenticator: (factory) => {
        record.authenticator = factory;
      },
      auditTrail: (factory) => {
        record.auditTrail = factory;
      },
      onInit: (hook) => void record.hooks.init.push(hook),
      onStart: (hook) => void record.hooks.start.push(hook),
      onBeforeShutdown: (hook) => void record.hooks.beforeShutdown.push(hook),
      onShutdown: (hook) => void record.hooks.shutdown.push(hook),
    };
    try {
      record.feature.register(registrar);
    } catch (err) {
      problems.push(`feature ${id} failed to register: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The routes of every feature, for documentation (OpenAPI). */
  routes(): { featureId: string; route: RouteDefinition }[] {
    return this.#records.flatMap((r) => r.routes.map((route) => ({ featureId: r.feature.id, route })));
  }

  /** Every right a route or router route needs, sorted. */
  rights(): string[] {
    const rights = new Set<string>();
    for (const { route } of this.routes()) if (route.right !== undefined) rights.add(route.right);
    for (const entry of this.routerRoutes()) if (entry.right !== undefined) rights.add(entry.right);
    return [...rights].sort();
  }

  /** The routes of every feature's `@koa/router` routers, for documentation (OpenAPI). */
  routerRoutes(): RouterRouteEntry[] {
    return this.#records.flatMap((r) => routerEntries(r));
  }

  featureIds(): string[] {
    return this.#records.map((r) => r.feature.id);
  }

  /** The scope of a feature (after init), as its own hooks see it: for CLIs and tests. */
  scope(featureId: string): FeatureScope {
    const record = this.#records.find((r) => r.feature.id === featureId);
    if (!record?.scope) throw new Error(`feature ${featureId} is not composed or not initialised`);
    return record.scope;
  }

  get store(): StoreAdapter['store'] {
    if (!this.#adapter) throw new Error('the kernel is not initialised');
    return this.#adapter.store;
  }

  get scheduler(): SchedulerEngine {
    if (!this.#scheduler) throw new Error('the kernel is not initialised');
    return this.#scheduler;
  }

  get address(): ListeningAddress | undefined {
    return this.#address;
  }

  /** Opens the store, builds the containers, defines jobs and runs every feature's init hooks. */
  init(): Promise<void> {
    this.#initPromise ??= this.#init();
    return this.#initPromise;
  }

  async #init(): Promise<void> {
    const timeout = this.serverConfig.phase_timeout_ms;
    mkdirSync(this.dataDir, { recursive: true });
    this.#adapter = await withTimeout(
      this.#options.store({ config: this.config.section('webserver.conf', 'store'), dataDir: this.dataDir, logger: this.logger.child({ component: 'store' }) }),
      timeout,
      'opening the store',
    );
    this.#scheduler = this.#options.scheduler({
      jobs: this.#adapter.jobs,
      processEveryMs: this.serverConfig.jobs_poll_ms,
      logger: this.logger.child({ component: 'scheduler' }),
    });
    const observed = observedStore(this.#adapter.store, this.observations);
    // What the features write through: the HTTP server may record there what each audited request writes.
    const store = this.#options.http.instrumentStore?.(observed) ?? observed;
    const shared = {
      [kernelRefs.storeProbe.id]: storeProbe(observed),
      [kernelRefs.clock.id]: this.clock,
      [kernelRefs.scheduler.id]: this.#scheduler,
      [kernelRefs.health.id]: this.health,
      [kernelRefs.installDir.id]: this.installDir,
      [kernelRefs.dataDir.id]: this.dataDir,
      [kernelRefs.env.id]: this.#options.env ?? process.env,
      [kernelRefs.routeCatalog.id]: { list: () => this.routes(), routers: () => this.routerRoutes(), rights: () => this.rights() },
      [kernelRefs.observations.id]: this.observations,
      [kernelRefs.inputLimits.id]: { jsonMaxDepth: this.serverConfig.json_max_depth } satisfies InputLimits,
      [kernelRefs.streamLimits.id]: {
        maxConnections: this.serverConfig.stream_max_connections,
        queueEvents: this.serverConfig.stream_queue_events,
        heartbeatMs: this.serverConfig.stream_heartbeat_ms,
        replayEvents: this.serverConfig.stream_replay_events,
      } satisfies StreamLimits,
    };

    const byId = new Map(this.#records.map((r) => [r.feature.id, r]));
    const contributionCache = new Map<string, unknown[]>();
    for (const record of this.#records) {
      const id = record.feature.id;
      const container = createContainer({ injectionMode: InjectionMode.PROXY, strict: true });
      const scope = new ContainerScope(id, container);
      for (const [name, value] of Object.entries(shared)) container.register(name, asValue(value));
      const extensions: Extensions = {
        contributions: <T>(point: ExtensionPointRef<T>): T[] => {
          if (!record.extensionPoints.has(point.id)) throw new Error(`feature ${id} declares no extension point ${point.id}`);
          let built = contributionCache.get(point.id);
          if (!built) {
            built = this.#records.flatMap((r) => r.contributions.filter((c) => c.point.id === point.id).map((c) => c.factory(r.scope as FeatureScope)));
            contributionCache.set(point.id, built);
          }
          return built as T[];
        },
      };
      const consumedEvents = record.consumed.filter((c) => c.ref.kind === 'event').map((c) => c.ref.id);
      container.register({
        [kernelRefs.logger.id]: asValue(record.logger),
        [configServiceId]: asValue(record.config),
        [kernelRefs.featureId.id]: asValue(id),
        [kernelRefs.store.id]: asValue(new OwnedStore(store, id, new Set(record.collections.keys()), this.#collectionOwners)),
        [kernelRefs.extensions.id]: asValue(extensions),
        [kernelRefs.eventBus.id]: asValue(this.eventBus.restrictedTo({ featureId: id, emits: record.events, hears: new Set([...record.events, ...consumedEvents]) })),
      });
      // Only what the feature consumes of its dependencies' exports is visible in its scope.
      const consumed = new Set(record.consumed.map((c) => c.ref.id));
      for (const dep of record.feature.dependsOn ?? []) {
        const source = byId.get(dep)?.container;
        if (!source) continue;
        for (const name of exportedIds(byId.get(dep) as FeatureRecord)) {
          if (consumed.has(name)) container.register(name, asFunction(() => source.resolve(name)).singleton());
        }
      }
      for (const bridge of record.bridges) bridge.install(container);
      for (const [name, { factory }] of record.services) container.register(name, asFunction(() => factory(scope)).singleton());
      record.container = container;
      record.scope = scope;
    }
    for (const record of this.#records) {
      const scope = record.scope as FeatureScope;
      for (const check of record.healthChecks) {
        this.health.register({ name: check.name, timeoutMs: check.timeoutMs, check: () => check.check(scope) });
      }
      for (const job of record.jobs) this.#scheduler.define(observedJob(job, this.observations), scope);
      if (record.authenticator) this.#authenticator = record.authenticator(scope);
      if (record.auditTrail) this.#auditTrail = record.auditTrail(scope);
    }
    this.#authenticator ??= this.#options.authenticator;
    // Every feature is initialised, except those whose dependencies failed, so that one boot names every failure.
    const failures = new Map<string, unknown>();
    for (const record of this.#records) {
      const id = record.feature.id;
      const failedDependencies = (record.feature.dependsOn ?? []).filter((dep) => failures.has(dep));
      if (failedDependencies.length > 0) {
        failures.set(id, new Error(`not initialised: it depends on ${failedDependencies.join(', ')}, which failed`));
        continue;
      }
      try {
        for (const [name, specs] of record.collections) {
          for (const spec of specs) await withTimeout(store.collection(name).createIndex(spec), timeout, `an index of ${name}`);
        }
        for (const hook of record.hooks.init) await withTimeout(hook(record.scope as FeatureScope), timeout, 'its init');
      } catch (err) {
        failures.set(id, err);
      }
    }
    if (failures.size > 0) {
      const lines = [...failures].map(([id, err]) => `feature ${id}: ${err instanceof Error ? err.message : String(err)}`);
      throw new AggregateError([...failures.values()], `Vigie could not initialise ${failures.size === 1 ? 'a feature' : `${failures.size} features`}:\n  - ${lines.join('\n  - ')}`);
    }
    this.#phase = 'initialised';
  }

  /** Initialises if needed, starts the scheduler and the features, then listens for HTTP. */
  async start(): Promise<ListeningAddress> {
    await this.init();
    if (this.#address) return this.#address;
    const timeout = this.serverConfig.phase_timeout_ms;
    await withTimeout(this.scheduler.start(), timeout, 'starting the scheduler');
    for (const record of this.#records) {
      for (const hook of record.hooks.start) await withTimeout(hook(record.scope as FeatureScope), timeout, `start of feature ${record.feature.id}`);
    }
    const mounted: MountedRoute[] = this.#records.flatMap((record) =>
      record.routes.map((route) => ({ featureId: record.feature.id, route, scope: record.scope as FeatureScope, wording: record.wording })),
    );
    const routers: MountedRouter[] = this.#records.flatMap((record) =>
      record.routers.map(({ router, options }) => ({
        featureId: record.feature.id,
        router,
        routes: routerRoutes(record.feature.id, router, options),
        scope: record.scope as FeatureScope,
        wording: record.wording,
      })),
    );
    const store = this.#adapter?.store;
    this.#http = this.#options.http.create({
      routes: mounted,
      routers,
      authenticator: () => this.#authenticator,
      ...(this.#records.some((r) => r.auditTrail) ? { auditTrail: () => this.#auditTrail } : {}),
      observations: this.observations,
      ...(store?.durable ? { durable: () => store.durable?.() } : {}),
      clientOrigin: clientOriginReader(this.serverConfig.trusted_proxies),
      config: this.serverConfig,
      accessLog: this.#accessLog,
      logger: this.logger,
    });
    this.#address = await this.#http.listen();
    this.#phase = 'started';
    this.logger.info({ url: this.#address.url, store: this.#adapter?.name, features: this.featureIds() }, 'Vigie is listening');
    return this.#address;
  }

  /**
   * Graceful stop: stop accepting connections, let in-flight requests and running jobs finish (bounded by
   * `shutdown_timeout_ms`), run shutdown hooks in reverse dependency order, dispose containers, close the
   * store. Safe to call several times.
   */
  stop(): Promise<void> {
    this.#stopPromise ??= this.#stop();
    return this.#stopPromise;
  }

  async #stop(): Promise<void> {
    const previous = this.#phase;
    this.#phase = 'stopping';
    const grace = this.serverConfig.shutdown_timeout_ms;
    const timeout = this.serverConfig.phase_timeout_ms;
    const failures: unknown[] = [];
    const attempt = async (what: string, work: () => Promise<unknown> | unknown): Promise<void> => {
      try {
        await withTimeout(Promise.resolve().then(work), timeout, what);
      } catch (err) {
        failures.push(err);
        this.logger.error({ err }, `${what} failed`);
      }
    };
    if (this.#initPromise) await this.#initPromise.catch(() => undefined);
    const http = this.#http;
    const inFlight = http ? await http.quiesce(grace) : 0;
    if (inFlight > 0) this.logger.warn({ inFlight }, 'requests still running at shutdown');
    if (this.#scheduler && previous === 'started') {
      const drained = await this.#scheduler.drain(grace);
      if (drained.timedOut) this.logger.warn({ running: drained.running }, 'jobs still running at shutdown; their locks will expire');
    }
    const reversed = [...this.#records].reverse();
    for (const record of reversed) {
      for (const hook of record.hooks.beforeShutdown) await attempt(`beforeShutdown of ${record.feature.id}`, () => hook(record.scope as FeatureScope));
    }
    await http?.close();
    for (const record of reversed) {
      for (const hook of record.hooks.shutdown) await attempt(`shutdown of ${record.feature.id}`, () => hook(record.scope as FeatureScope));
    }
    for (const record of reversed) if (record.container) await attempt(`disposing ${record.feature.id}`, () => record.container?.dispose());
    if (this.#adapter) await attempt('closing the store', () => this.#adapter?.store.close());
    this.#phase = 'stopped';
    this.#address = undefined;
    this.logger.info('Vigie stopped');
    if (failures.length > 0) throw new AggregateError(failures, 'shutdown finished with errors');
  }

  /** Wires SIGTERM and SIGINT to a graceful stop, once; the process exits when the stop is done. */
  installSignalHandlers(exit: (code: number) => void = (code) => process.exit(code)): void {
    if (this.#signalsInstalled) return;
    this.#signalsInstalled = true;
    const onSignal = (signal: NodeJS.Signals): void => {
      this.logger.info({ signal }, 'shutting down');
      this.stop().then(
        () => exit(0),
        () => exit(1),
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
}

/** Composes features; throws an `INVALID_COMPOSITION` error listing every problem at once. */
export function createKernel(options: KernelOptions): Kernel {
  return new Kernel(options);
}
