import type { Context, ParameterizedContext } from 'koa';
import type { InferType, Schema } from 'yup';
import type { Logger } from './log.js';
import type { HealthResult } from '@vigie/observability';
import type { AuthenticatedUser, Authenticator } from './auth.js';
import type { DiBridge } from './di/bridge.js';
import type { AuditTrail } from './audit.js';
import type { ClientOrigin } from './http/client-origin.js';
import type { HttpError, VigieError } from './errors.js';
import type { JobRun, JobOptions } from './scheduler/port.js';
import type { IndexSpec } from './store/port.js';
import { serviceRef, type AnyEventRef, type AnyServiceRef, type CollectionRef, type ExtensionPointRef, type FeatureScope, type ServiceRef } from './refs.js';
import type { Doc } from './store/port.js';
import { configServiceId } from './kernel-refs.js';

/** What every request carries in `ctx.state`. */
export interface VigieState {
  requestId: string;
  log: Logger;
  /** The authenticated user; absent only on public routes. */
  user?: AuthenticatedUser;
  /** The scope of the feature that owns the route: `ctx.state.scope.resolve(ref)`. */
  scope: FeatureScope;
  /** The client's address and whether it used HTTPS, honouring `[server] trusted_proxies` only. */
  readonly client: ClientOrigin;
  /**
   * Counts documents written by a route declared with `auditChanges: false` or `audit: 'tally'`: its audit record
   * shows the count (`changesOmitted`). Does nothing for other routes, whose writes the store follows, nor for
   * unaudited requests.
   */
  countWrites(documents: number): void;
}

/** The Koa context of a route handler: `params` holds the decoded path parameters. */
export type VigieContext = ParameterizedContext<VigieState> & { params: Record<string, string> };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** What a wording entry may answer: a ready HttpError or its parts. */
export type WordedError = HttpError | { status: number; description: string; name?: string; format?: 'json' | 'html' };

/** Maps kernel error codes to a feature's wording, e.g. `{ BODY_INVALID_JSON: () => ({status: 400, description: 'Invalid JSON'}) }`. */
export type ErrorWording = Readonly<Record<string, (error: VigieError, ctx: Context) => WordedError>>;

export type BodyMedia = 'json' | 'form' | 'text';

export interface BodyOptions {
  /** Accepted media types: JSON only by default. */
  accept?: readonly BodyMedia[];
  /** Maximum size in bytes; the server's `body_limit` otherwise. */
  limit?: number;
  /** Whether an absent or empty body is an error (`BODY_EMPTY`). */
  required?: boolean;
  /**
   * A body of a media type not accepted: refused with `BODY_UNSUPPORTED_TYPE` (the default), or read as no body at
   * all (`absent`), as the original's plain routes did (they read a body only when it was sent as JSON).
   */
  otherMedia?: 'refuse' | 'absent';
  /** DELETE requests carry a body too (bulk deletions: the ids to delete); only POST, PUT and PATCH do otherwise. */
  onDelete?: boolean;
}

export interface RouteResponseDoc {
  description: string;
  /** yup schema of the body, for the OpenAPI document. */
  schema?: Schema;
  /** Media type when not JSON (e.g. `text/html`). */
  contentType?: string;
}

/**
 * What a route's handler receives after the kernel validated the request: the body cast by `requestSchema` and the
 * query cast by `querySchema` (undefined where the route declares no schema; `requestBody(ctx)` reads a raw body).
 */
export interface RouteInput<B = undefined, Q = undefined> {
  body: B;
  query: Q;
}

/** How the kernel reads the query before `querySchema` checks it. */
export interface QueryOptions {
  /** Values checked as sent, no casting nor defaults (the query strings stay strings). Cast by default. */
  strict?: boolean;
  /** A parameter given more than once (`?limit=1&limit=2`) is a `VALIDATION` error rather than a list. */
  singleValued?: boolean;
}

export interface RouteDefinition<B = unknown, Q = unknown> {
  method: HttpMethod;
  /**
   * Absolute path(s). `:name` matches one segment, `*name` the rest of the path, slashes included (entity ids
   * such as `disk/host` may be sent raw or URL-encoded; a trailing slash sent after such an id is kept in it).
   * Otherwise a trailing slash is never significant. Exact paths win over parameterised ones.
   */
  path: string | readonly string[];
  /** Routes are authenticated unless this is true (identity-provider callbacks, metadata). */
  public?: boolean;
  /**
   * The right (`<resource>:<action>`, e.g. `idle-rules:write`) the user must hold; the kernel checks it after
   * authentication and before the body is read, and answers 403 without it. Required on every route that is not
   * public: the boot check refuses a route without one.
   */
  right?: string;
  /** Body handling; JSON up to the server's default limit for POST/PUT/PATCH unless set. `false` leaves the stream unread. */
  body?: BodyOptions | false;
  /**
   * Whether the audit record of a write copies the documents it wrote (before/after); true by default. `false`: the
   * store does not follow the request's writes and the handler counts them with `ctx.state.countWrites`
   * (`changesOmitted`), for a route whose writes are their own record, such as the event intake, where copying each
   * queued event would double the writes of the hottest route (and following them costs every promise of the process
   * while it is busy).
   */
  auditChanges?: boolean;
  /**
   * `tally`: the route's requests are recorded by the minute: one audit record for each user, client address and
   * route, counting its requests (answered or not, failed) and the documents they wrote (with `ctx.state.countWrites`,
   * never copied). For a route called many times a second, such as the event intake, where a record per request would
   * grow the log, and the embedded store's memory, with the traffic.
   */
  audit?: 'tally';
  /** Error wording for this route, over the feature's. */
  errors?: ErrorWording;
  /** OpenAPI description. */
  summary?: string;
  description?: string;
  tags?: readonly string[];
  /**
   * The body of POST, PUT and PATCH, validated strictly (as sent: no casting, unknown keys refused by `noUnknown()`)
   * and within the input bounds before the handler runs; a failure is a `VALIDATION` error worded by the route's or
   * feature's wording. Not with `body: false` (the kernel reads no body then: see `requestDoc`).
   */
  requestSchema?: Schema<B>;
  /**
   * Turns the parsed body into the form `requestSchema` checks, before it does: the spellings older clients send
   * (aliases, a filter as JSON text, booleans as text). May throw the answers the spec gives first.
   */
  prepareBody?(body: unknown): unknown;
  /**
   * Documents a body the kernel does not validate: a stream the handler reads (`body: false`), or a body whose checks
   * the spec words in ways a schema cannot say (by media type, in an order across fields); the route says why.
   */
  requestDoc?: Schema;
  /** The query, validated (cast unless `queryOptions.strict`) before the handler runs, failures worded as above. */
  querySchema?: Schema<Q>;
  queryOptions?: QueryOptions;
  /**
   * Runs after the body is read and before the input is validated, for the checks the API answers first (an unknown
   * path id is a 404 even when the body is invalid, in some original routes).
   */
  preValidation?(ctx: VigieContext): Promise<void> | void;
  responses?: Readonly<Record<number, RouteResponseDoc>>;
  /**
   * Returns the body (an object, array, string or `null` for the JSON value null), or sets `ctx.body` itself.
   * `input` holds what the schemas validated and cast, typed by them when the route is written with `defineRoute`.
   */
  handler(ctx: VigieContext, input: RouteInput<B, Q>): unknown;
}

/**
 * Types a route from its schemas: `input.body` is `InferType<typeof requestSchema>`, `input.query` the same for
 * `querySchema`, and `undefined` where the route declares none.
 */
export function defineRoute<B = undefined, Q = undefined>(route: RouteDefinition<B, Q>): RouteDefinition<B, Q> {
  return route;
}

/**
 * The part of a `@koa/router` `Router` the kernel uses. Structural, so that the kernel does not load
 * `@koa/router` itself and features bring the version they use (15 or later).
 */
export interface KoaRouterLike {
  readonly stack: readonly { readonly path: string | RegExp; readonly methods: readonly string[] }[];
  match(
    path: string,
    method: string,
  ): {
    readonly path: readonly { readonly methods: readonly string[] }[];
    /** The layers matching the path and the method, in the router's order. */
    readonly pathAndMethod: readonly { readonly path: string | RegExp; readonly methods: readonly string[] }[];
    readonly route: boolean;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Koa middleware of any context type
  routes(): (ctx: any, next: () => Promise<any>) => any;
}

/** Documentation of one route of a router, for the OpenAPI document. */
export interface RouterRouteDoc {
  /** The right this route needs, over the router's `right`. */
  right?: string;
  summary?: string;
  description?: string;
  tags?: readonly string[];
}

export interface RouterOptions {
  /** The right every route of the router needs unless its `docs` entry names another; the boot check requires one. */
  right?: string;
  /** Documentation by `'<METHOD> <path as declared in the router>'`; routes without one are listed as undocumented. */
  docs?: Readonly<Record<string, RouterRouteDoc>>;
}

/** A route a feature's router answers, as the OpenAPI document lists it. */
export interface RouterRouteEntry {
  featureId: string;
  method: string;
  /** As declared in the router (prefix included), in `path-to-regexp` syntax. */
  path: string;
  /** Absent when the author attached none: the route is undocumented. */
  doc?: RouterRouteDoc;
  /** The right the route needs (its doc's, else the router's); absent only in a composition the boot check refuses. */
  right?: string;
}

export interface JobDefinition<D = unknown> extends JobOptions {
  /** Globally unique; prefix with the feature id (`import.process`). */
  name: string;
  handler(run: JobRun<D>): Promise<void>;
}

export interface HealthCheckDefinition {
  name: string;
  timeoutMs?: number;
  /** Runs with the feature's scope, so checks resolve what they need. */
  check(scope: FeatureScope): Promise<HealthResult>;
}

/** `kernelRefs.extensions` of every feature. */
export interface Extensions {
  /** What features contributed to one of this feature's extension points (built once, at first call). */
  contributions<T>(point: ExtensionPointRef<T>): T[];
}

/** `kernelRefs.routeCatalog`: every composed route, for documentation features (OpenAPI). */
export interface RouteCatalog {
  list(): { featureId: string; route: RouteDefinition }[];
  routers(): RouterRouteEntry[];
  /** Every right a composed route or router route needs, sorted: what roles are made of. */
  rights(): string[];
}

export type LifecycleHook = (scope: FeatureScope) => Promise<void> | void;

/** What `register` receives: declarations only, no I/O. */
export interface FeatureRegistrar<C> {
  readonly id: string;
  /** The validated, cast configuration slice. */
  readonly config: C;
  readonly logger: Logger;
  /**
   * Declares a singleton service built by `factory` (at first resolution). Exported services are visible to the
   * features that list this one in `dependsOn` and consume the reference.
   */
  service<T>(ref: ServiceRef<T>, factory: (scope: FeatureScope) => T, options?: { export?: boolean }): void;
  /** Installs the feature's tsyringe bridge (one per feature, from its `src/di.ts`); its `exports` are the feature's. */
  use(bridge: DiBridge): void;
  /**
   * Declares the references of other features this feature uses outside its bridge (resolved in hooks, listened to
   * on the bus). The boot check verifies each is exported or declared by a feature in `dependsOn`; only consumed
   * services of dependencies are visible in the feature's scope.
   */
  consume(...refs: readonly (AnyServiceRef | AnyEventRef)[]): void;
  /** Declares a domain event this feature owns (emits); dependents may listen to it. */
  event(ref: AnyEventRef): void;
  /**
   * Declares a collection this feature owns, with the indexes the kernel creates at init (before `onInit`). The
   * feature's store reaches only its own collections; other features read them through its exported services.
   */
  collection<T extends Doc>(ref: CollectionRef<T>, options?: { indexes?: readonly IndexSpec[] }): void;
  route(route: RouteDefinition): void;
  /**
   * Mounts a `@koa/router` router (for existing Koa routes and middleware). Its routes are tried after the declared
   * routes and get the same authentication, feature scope, error envelope and logging; the kernel reads no body
   * for them (bring a body parser if they need one).
   */
  router(router: KoaRouterLike, options?: RouterOptions): void;
  job<D>(job: JobDefinition<D>): void;
  healthCheck(check: HealthCheckDefinition): void;
  /** How this feature's routes word kernel errors (body parsing, validation, store errors). */
  errors(wording: ErrorWording): void;
  /** Declares an extension point other features can contribute to (by depending on this feature). */
  extensionPoint(point: ExtensionPointRef<unknown>): void;
  /** Contributes to another feature's extension point; the factory runs at first use with this feature's scope. */
  extend<T>(point: ExtensionPointRef<T>, contribution: (scope: FeatureScope) => T): void;
  /** Makes this feature the kernel's authenticator (exactly one feature may). */
  authenticator(factory: (scope: FeatureScope) => Authenticator): void;
  /** Makes this feature the kernel's audit trail, which records every change made through the API (at most one feature may). */
  auditTrail(factory: (scope: FeatureScope) => AuditTrail): void;
  onInit(hook: LifecycleHook): void;
  onStart(hook: LifecycleHook): void;
  onBeforeShutdown(hook: LifecycleHook): void;
  onShutdown(hook: LifecycleHook): void;
}

/** Where a feature's configuration is read and how it is checked; made by `featureConfig`. */
export interface FeatureConfig<C> {
  /** yup schema of the slice; the kernel validates all slices at boot and reports every problem at once. */
  readonly schema: Schema<C>;
  /** INI file under `<install>/etc`; `webserver.conf` by default. */
  readonly file?: string;
  /** Section of that file; the feature id by default. */
  readonly section?: string;
  /** The validated slice, typed by the schema: `@injectRef(alarmsConfig.ref) config: AlarmsConfig`. */
  readonly ref: ServiceRef<C>;
}

/**
 * A feature's configuration: its schema, where it is read, and the reference its classes inject, typed by the
 * schema (no cast). Declared in the package's `src/config.ts` (imported by both the definition and the services):
 *
 *     export const alarmsConfig = featureConfig(alarmsConfigSchema);
 *     defineFeature({ id: 'alarms', config: alarmsConfig, … });
 *     constructor(@injectRef(alarmsConfig.ref) config: AlarmsConfig) {}
 *
 * The reference resolves, in any feature's scope, that feature's own slice: use only your own feature's.
 */
export function featureConfig<S extends Schema>(schema: S, where: { file?: string; section?: string } = {}): FeatureConfig<InferType<S>> {
  return Object.freeze({ schema, ...where, ref: serviceRef<InferType<S>>(configServiceId) });
}

export interface FeatureDefinition<C = unknown> {
  /** kebab-case, equal to the package name's suffix (`@vigie/idle-rules` ⇒ `idle-rules`). */
  id: string;
  /** Semver range of the kernel this feature works with. */
  kernel: string;
  dependsOn?: readonly string[];
  config?: FeatureConfig<C>;
  register(registrar: FeatureRegistrar<C>): void;
}

/**
 * Every copy of the kernel marks the definitions it makes with a token of its own, under a key all copies share. A
 * plugin that brought its own `@vigie/kernel` (a dependency instead of a peer dependency) defines its feature with
 * another copy, whose classes, errors and references the host's kernel would not recognise: the composition refuses
 * it, naming the feature.
 */
const definedBy = Symbol.for('@vigie/kernel: defined by');
const thisCopy = Symbol('this copy of @vigie/kernel');

/** Whether `feature` was made by the `defineFeature` of another copy of the kernel loaded in this program. */
export function definedByAnotherKernel(feature: object): boolean {
  const mark: unknown = (feature as Record<symbol, unknown>)[definedBy];
  return mark !== undefined && mark !== thisCopy;
}

/** The feature contract: a plain, frozen object describing one feature. */
export function defineFeature<C = Record<string, never>>(definition: FeatureDefinition<C>): Readonly<FeatureDefinition<C>> {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(definition.id)) {
    throw new Error(`feature id ${JSON.stringify(definition.id)} must be kebab-case`);
  }
  if (typeof definition.register !== 'function') throw new Error(`feature ${definition.id} has no register function`);
  const feature = { ...definition, dependsOn: Object.freeze([...(definition.dependsOn ?? [])]) };
  Object.defineProperty(feature, definedBy, { value: thisCopy });
  return Object.freeze(feature);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of features with unrelated config types
export type AnyFeature = Readonly<FeatureDefinition<any>>;
