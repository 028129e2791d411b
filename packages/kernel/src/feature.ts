import type { AwilixContainer, Resolver } from 'awilix';
import type { ParameterizedContext } from 'koa';
import type { Schema } from 'yup';
import type { Logger } from './log.js';
import type { HealthResult } from './health.js';
import type { AuthenticatedUser, Authenticator } from './auth.js';
import type { DiBridge } from './di/bridge.js';
import type { ErrorWording } from './http/error-wording.js';
import type { BodyOptions } from './http/body.js';
import type { JobRun, JobOptions } from './scheduler/port.js';

/** What every request carries in `ctx.state`. */
export interface VigieState {
  requestId: string;
  log: Logger;
  /** The authenticated user; absent only on public routes. */
  user?: AuthenticatedUser;
  /**
   * The awilix container of the feature that owns the route: the services it declared and those its dependencies
   * export. There is no per-request scope: what a service needs of the request is passed to it as an argument.
   */
  scope: AwilixContainer;
}

/** The Koa context of a route handler: `params` holds the decoded path parameters. */
export type VigieContext = ParameterizedContext<VigieState> & { params: Record<string, string> };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteResponseDoc {
  description: string;
  /** yup schema of the body, for the OpenAPI document. */
  schema?: Schema;
  /** Media type when not JSON (e.g. `text/html`). */
  contentType?: string;
}

export interface RouteDefinition {
  method: HttpMethod;
  /**
   * Absolute path(s). `:name` matches one segment, `*name` the rest of the path, slashes included (entity ids
   * such as `disk/host` may be sent raw or URL-encoded; a trailing slash sent after such an id is kept in it).
   * Otherwise a trailing slash is never significant. Exact paths win over parameterised ones.
   */
  path: string | readonly string[];
  /** Routes are authenticated unless this is true (identity-provider callbacks, metadata). */
  public?: boolean;
  /** Body handling; JSON up to the server's default limit for POST/PUT/PATCH unless set. `false` leaves the stream unread. */
  body?: BodyOptions | false;
  /** Error wording for this route, over the feature's. */
  errors?: ErrorWording;
  /** OpenAPI description. */
  summary?: string;
  description?: string;
  tags?: readonly string[];
  requestSchema?: Schema;
  querySchema?: Schema;
  responses?: Readonly<Record<number, RouteResponseDoc>>;
  /** Returns the body (an object, array, string or `null` for the JSON value null), or sets `ctx.body` itself. */
  handler(ctx: VigieContext): unknown;
}

/**
 * The part of a `@koa/router` `Router` the kernel uses. Structural, so that the kernel does not load
 * `@koa/router` itself and features bring the version they use (15 or later).
 */
export interface KoaRouterLike {
  readonly stack: readonly { readonly path: string | RegExp; readonly methods: readonly string[] }[];
  match(path: string, method: string): { readonly path: readonly { readonly methods: readonly string[] }[]; readonly route: boolean };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Koa middleware of any context type
  routes(): (ctx: any, next: () => Promise<any>) => any;
}

/** Documentation of one route of a router, for the OpenAPI document. */
export interface RouterRouteDoc {
  summary?: string;
  description?: string;
  tags?: readonly string[];
}

export interface RouterOptions {
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
}

export interface JobDefinition<D = unknown> extends JobOptions {
  /** Globally unique; prefix with the feature id (`import.process`). */
  name: string;
  handler(run: JobRun<D>): Promise<void>;
}

export interface HealthCheckDefinition {
  name: string;
  timeoutMs?: number;
  /** Runs with the feature's container, so checks resolve what they need. */
  check(container: AwilixContainer): Promise<HealthResult>;
}

/** Registered as `extensions` in every feature container. */
export interface Extensions {
  /** What features contributed to one of this feature's extension points (built once, at first call). */
  contributions<T>(point: string): T[];
}

export type LifecycleHook = (container: AwilixContainer) => Promise<void> | void;

/** What `register` receives: declarations only, no I/O. */
export interface FeatureRegistrar<C> {
  readonly id: string;
  /** The validated, cast configuration slice. */
  readonly config: C;
  readonly logger: Logger;
  /**
   * Declares a service in the feature's awilix container. Exported services are visible to the features that
   * list this one in `dependsOn`.
   */
  service(name: string, resolver: Resolver<unknown>, options?: { export?: boolean }): void;
  /** Registers a tsyringe bridge (one per feature, from its `src/di.ts`); `export` names the bridge exports dependents see. */
  use(bridge: DiBridge, options?: { export?: readonly string[] }): void;
  route(route: RouteDefinition): void;
  /**
   * Mounts a `@koa/router` router (for existing Koa routes and middleware). Its routes are tried after the declared
   * routes and get the same authentication, feature container, error envelope and logging; the kernel reads no body
   * for them (bring a body parser if they need one).
   */
  router(router: KoaRouterLike, options?: RouterOptions): void;
  job<D>(job: JobDefinition<D>): void;
  healthCheck(check: HealthCheckDefinition): void;
  /** How this feature's routes word kernel errors (body parsing, validation, store errors). */
  errors(wording: ErrorWording): void;
  /** Declares an extension point other features can contribute to (by depending on this feature). */
  extensionPoint(name: string): void;
  /** Contributes to another feature's extension point; the factory runs at init with this feature's container. */
  extend<T>(point: string, contribution: (container: AwilixContainer) => T): void;
  /** Makes this feature the kernel's authenticator (exactly one feature may). */
  authenticator(factory: (container: AwilixContainer) => Authenticator): void;
  onInit(hook: LifecycleHook): void;
  onStart(hook: LifecycleHook): void;
  onBeforeShutdown(hook: LifecycleHook): void;
  onShutdown(hook: LifecycleHook): void;
}

export interface FeatureConfigSource<C> {
  /** yup schema of the slice; the kernel validates all slices at boot and reports every problem at once. */
  schema: Schema<C>;
  /** INI file under `<install>/etc`; `webserver.conf` by default. */
  file?: string;
  /** Section of that file; the feature id by default. */
  section?: string;
}

export interface FeatureDefinition<C = unknown> {
  /** kebab-case, equal to the package name's suffix (`@vigie/idle-rules` ⇒ `idle-rules`). */
  id: string;
  /** Semver range of the kernel this feature works with. */
  kernel: string;
  dependsOn?: readonly string[];
  config?: FeatureConfigSource<C>;
  register(registrar: FeatureRegistrar<C>): void;
}

/** The feature contract: a plain, frozen object describing one feature. */
export function defineFeature<C = Record<string, never>>(definition: FeatureDefinition<C>): Readonly<FeatureDefinition<C>> {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(definition.id)) {
    throw new Error(`feature id ${JSON.stringify(definition.id)} must be kebab-case`);
  }
  if (typeof definition.register !== 'function') throw new Error(`feature ${definition.id} has no register function`);
  return Object.freeze({ ...definition, dependsOn: Object.freeze([...(definition.dependsOn ?? [])]) });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of features with unrelated config types
export type AnyFeature = Readonly<FeatureDefinition<any>>;
