import { randomInt } from 'node:crypto';
import Koa, { type Context } from 'koa';
import {
  HttpError,
  holdsRight,
  isHttpError,
  missingRight,
  parseBasicAuthorization,
  type AuditEntry,
  type AuthOutcome,
  type Authenticator,
  type BodyOptions,
  type ClientOrigin,
  type FeatureScope,
  type HttpServerContext,
  type Logger,
  type MountedRoute,
  type MountedRouter,
  type VigieContext,
  type VigieState,
} from '@vigie/kernel';
import { requestBody } from '@vigie/input';
import { AuditChangeLog, maskSecrets } from './audit-changes.js';
import { bodyMethods, readBody, type BodyDefaults } from './body.js';
import { inputReader, noInput } from './input.js';
import { responseChecker, type ResponseMismatch } from './response-check.js';
import { wordError } from './error-wording.js';
import { MalformedPathError, RouteTable, type RouteMatch } from './route-table.js';
import { RouterSet, runRouted, type RouterMatch } from './routers.js';
import { nameContextAccessors } from './koa-context.js';

/** What the application is built from: the kernel's context, plus what the server derives from it or adds for tests. */
export interface HttpAppOptions extends HttpServerContext {
  /** `[server] body_limit` and `json_max_depth`: what routes read bodies with unless they set their own limit. */
  bodyDefaults: BodyDefaults;
  /**
   * Told of every answer a route's handler gives that contradicts the response schema the route declares for its
   * status (tests set it; in production response schemas are documentation and no answer is checked).
   */
  onResponseMismatch?: (mismatch: ResponseMismatch) => void;
}

/** Counts requests in flight so shutdown can wait for them. */
export class InFlight {
  #count = 0;
  #waiters: (() => void)[] = [];

  enter(): void {
    this.#count += 1;
  }

  leave(): void {
    this.#count -= 1;
    if (this.#count === 0 && this.#waiters.length > 0) for (const resolve of this.#waiters.splice(0)) resolve();
  }

  get count(): number {
    return this.#count;
  }

  /** Resolves when no request is in flight, or after `timeoutMs`. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;
/** Request ids made with one random prefix: counts up to five base-36 digits, small integers V8 converts fast. */
const requestsPerIdPrefix = 36 ** 5;

function htmlPage(status: number, description: string): string {
  const escaped = description.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>\n<html>\n<head><title>Error: ${status}</title></head>\n<body>\n<h1>Error: ${status}</h1>\n<p>${escaped}</p>\n</body>\n</html>\n`;
}

function render(ctx: Context, err: unknown, log: Logger): void {
  let httpError: HttpError;
  if (isHttpError(err)) {
    httpError = err;
  } else if (typeof err === 'object' && err !== null && (err as { expose?: boolean }).expose === true && typeof (err as { status?: number }).status === 'number') {
    const e = err as { status: number; message: string };
    httpError = new HttpError(e.status, e.message);
  } else {
    log.error({ err }, 'unhandled error');
    httpError = new HttpError(500, 'Internal server error');
  }
  if (httpError.status >= 500 && isHttpError(err)) log.error({ err: httpError.cause ?? httpError }, httpError.description);
  ctx.status = httpError.status;
  for (const [name, value] of Object.entries(httpError.headers)) ctx.set(name, value);
  ctx.set('Cache-Control', 'no-cache');
  if (httpError.format === 'html') {
    ctx.type = 'text/html; charset=UTF-8';
    ctx.body = htmlPage(httpError.status, httpError.description);
  } else {
    ctx.type = 'application/json';
    ctx.body = { name: httpError.publicName, description: httpError.description };
  }
}

/** An array or an object literal (not a Buffer, stream or other class instance Koa answers its own way). */
function isPlainJson(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * What every request carries in `ctx.state`. The logger is built on first use: most requests log nothing. The scope
 * is the answering feature's (its services are singletons, so a request needs no scope of its own).
 */
class RequestState implements VigieState {
  user?: VigieState['user'];
  #log: Logger | undefined;
  #scope: FeatureScope | undefined;
  #client: ClientOrigin | undefined;
  #counted: AuditChangeLog | undefined;

  constructor(
    readonly requestId: string,
    private readonly rootLogger: Logger,
    private readonly req: Context['req'],
    private readonly readClient: (req: Context['req']) => ClientOrigin,
  ) {}

  get client(): ClientOrigin {
    this.#client ??= this.readClient(this.req);
    return this.#client;
  }

  get log(): Logger {
    this.#log ??= this.rootLogger.child({ requestId: this.requestId });
    return this.#log;
  }

  get scope(): FeatureScope {
    if (!this.#scope) throw new Error('no route owns this request');
    return this.#scope;
  }

  /** Binds the request to the scope of the feature whose route answers it. */
  useScope(scope: FeatureScope): void {
    this.#scope = scope;
  }

  countWrites(documents: number): void {
    this.#counted?.omit(documents);
  }

  /** Where `countWrites` adds, for an audited request whose route counts its own writes (`auditChanges: false`). */
  countWritesIn(log: AuditChangeLog): void {
    this.#counted = log;
  }
}

/** The answer to a client that failed to log in too often: 429 with `Retry-After`. */
export function tooManyLogins(retryAfterSeconds: number): HttpError {
  return new HttpError(429, `Too many failed logins: retry in ${retryAfterSeconds} s`, { headers: { 'Retry-After': String(retryAfterSeconds) } });
}

/** Methods that change nothing, whose requests are not recorded in the audit trail. */
const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The status an error will be answered with. */
function statusOf(err: unknown): number {
  return isHttpError(err) ? err.status : 500;
}

/**
 * Records the change a request asks for before `work` runs, and its outcome after: the record is durable before
 * anything changes (a failure to record refuses the request), so a crash can leave a record without its change,
 * never a change without its record.
 */
async function audited(
  ctx: VigieContext,
  options: HttpAppOptions,
  what: Pick<AuditEntry, 'route' | 'right' | 'body' | 'tally'>,
  work: () => Promise<void>,
  copyChanges = true,
): Promise<void> {
  const trail = readMethods.has(ctx.req.method ?? 'GET') ? undefined : options.auditTrail?.();
  if (!trail || !ctx.state.user) return work();
  const { id, name, via, apiKey } = ctx.state.user;
  const entry: AuditEntry = {
    requestId: ctx.state.requestId,
    at: Date.now(),
    user: { id, name, via, ...(apiKey !== undefined ? { apiKey } : {}) },
    method: ctx.req.method ?? '',
    path: ctx.path,
    params: { ...ctx.params },
    clientAddress: ctx.state.client.address,
    ...what,
  };
  const recordId = await trail.begin(entry);
  // The store every feature resolves adds the documents written by `work` (and what it awaits) to this log. A route
  // whose writes are their own record counts them itself: following its writes would keep the AsyncLocalStorage,
  // and with it promise hooks on every promise of the process, enabled for as long as the hottest route is busy.
  const changes = new AuditChangeLog(copyChanges ? undefined : 0);
  let status = 500;
  try {
    if (copyChanges) await changes.run(work);
    else {
      (ctx.state as unknown as RequestState).countWritesIn(changes);
      await work();
    }
    status = ctx.status;
  } catch (err) {
    status = statusOf(err);
    throw err;
  } finally {
    changes.close();
    await trail
      .end(recordId, { status, at: Date.now(), changes: changes.changes, changesOmitted: changes.omitted })
      .catch((err: unknown) => ctx.state.log.error({ err, recordId }, 'could not record the outcome of an audited request'));
  }
}

/** Statuses of a write the kernel refuses before its handler, recorded so an administrator sees who tried. */
const refusalStatuses = new Set([401, 403, 429]);

/**
 * Records a write refused before its handler (bad or throttled credentials, a missing right, a missing CSRF token).
 * A request that gave no credentials at all names nobody and is not recorded: anyone could fill the log with them.
 */
async function recordRefusal(
  ctx: Context,
  options: HttpAppOptions,
  err: unknown,
  what: { route: string; right: string | undefined; params: Record<string, string>; tally?: boolean },
): Promise<void> {
  if (!isHttpError(err) || !refusalStatuses.has(err.status) || readMethods.has(ctx.req.method ?? 'GET')) return;
  const trail = options.auditTrail?.();
  if (!trail) return;
  const authenticated = ctx.state.user as VigieState['user'];
  const user = authenticated
    ? { id: authenticated.id, name: authenticated.name, via: authenticated.via, ...(authenticated.apiKey !== undefined ? { apiKey: authenticated.apiKey } : {}) }
    : { id: '', name: (parseBasicAuthorization(ctx.req.headers.authorization)?.user ?? '').slice(0, 256), via: '' };
  if (!authenticated && user.name === '' && !ctx.req.headers.authorization && !ctx.req.headers.cookie) return;
  await trail
    .refused({
      requestId: (ctx.state as VigieState).requestId,
      at: Date.now(),
      user,
      method: ctx.req.method ?? '',
      path: ctx.path,
      clientAddress: (ctx.state as VigieState).client.address,
      body: null,
      ...what,
      status: err.status,
      reason: err.description,
    })
    .catch((failure: unknown) => (ctx.state as VigieState).log.error({ err: failure }, 'could not record a refused write'));
}

/** What a router route's middleware gets as `next`: the kernel runs nothing after it. */
const routerNext = (): Promise<void> => Promise.resolve();

/**
 * Runs a router's route for a request it has one for, in the scope of the router's feature; a promise only when the
 * route answers later (a synchronous handler spends no microtask, as a declared route's).
 */
function runRouter(ctx: VigieContext, options: HttpAppOptions, routed: Extract<RouterMatch, { found: true }>, method: string, path: string): Promise<void> | undefined {
  const { mounted } = routed;
  (ctx.state as unknown as RequestState).useScope(mounted.scope);
  if (ctx.params === undefined) ctx.params = {};
  try {
    if (readMethods.has(method) || options.auditTrail === undefined) {
      const result = runRouted(routed, ctx, path, routerNext);
      if (!isThenable(result)) return undefined;
      return Promise.resolve(result).then(
        () => undefined,
        (err: unknown) => routerFailure(err, ctx, mounted),
      );
    }
    // The kernel reads no body for router routes: none is recorded.
    return audited(ctx, options, { route: routed.template, right: routed.right, body: null }, async () => {
      await runRouted(routed, ctx, path, routerNext);
    }).catch((err: unknown) => routerFailure(err, ctx, mounted));
  } catch (err) {
    return routerFailure(err, ctx, mounted);
  }
}

/** A router route's failure in its feature's words. */
function routerFailure(err: unknown, ctx: VigieContext, mounted: MountedRouter): never {
  throw wordError(err, ctx, [undefined, mounted.wording]);
}

function routeMiddleware(mounted: MountedRoute, options: HttpAppOptions) {
  const { route, scope, wording } = mounted;
  const bodyDefaults = options.bodyDefaults;
  // Built once per route: a route without schemas reads no input, and the response check exists only in tests.
  const readInput = inputReader(route);
  const checkResponse = options.onResponseMismatch ? responseChecker(mounted, options.onResponseMismatch) : undefined;
  const recorded = !route.public && !readMethods.has(route.method) && options.auditTrail !== undefined;
  // Counted in a record of the minute: neither its body nor its writes are copied.
  const tallied = route.audit === 'tally';
  const copyChanges = !tallied && route.auditChanges !== false;
  type Input = ReturnType<NonNullable<typeof readInput>> | typeof noInput;
  /** Turns what the handler returned into the answer. */
  const answer = (ctx: VigieContext, result: unknown): void => {
    if (result !== undefined && ctx.body === undefined) {
      // Koa answers a null body with 204; a handler returning null means the JSON value null (the spec has some).
      if (result === null) {
        ctx.type = 'application/json';
        ctx.body = 'null';
      } else if (isPlainJson(result) && !ctx.res.hasHeader('content-type')) {
        // Serialised here with the header set directly: Koa would look the JSON type up on every answer.
        ctx.res.setHeader('Content-Type', 'application/json; charset=utf-8');
        ctx.body = JSON.stringify(result);
      } else {
        ctx.body = result;
      }
    }
    if (checkResponse) checkResponse(ctx, result);
  };
  /** Runs the handler; a promise only when the handler returns one (a synchronous handler spends no microtask). */
  const respond = (ctx: VigieContext, input: Input): Promise<void> | undefined => {
    const result: unknown = route.handler(ctx, input);
    if (isThenable(result)) return Promise.resolve(result).then((value) => answer(ctx, value));
    answer(ctx, result);
    return undefined;
  };
  /** The input, then the handler, recorded in the audit trail when the route changes things. */
  const handle = (ctx: VigieContext, template: string): Promise<void> | undefined => {
    const input = readInput ? readInput(ctx) : noInput;
    if (!recorded) return respond(ctx, input);
    const body = tallied || route.body === false ? null : maskSecrets(requestBody(ctx) ?? null);
    return audited(ctx, options, { route: template, right: route.right, body, ...(tallied ? { tally: true } : {}) }, () => respond(ctx, input) ?? Promise.resolve(), copyChanges);
  };
  const bodyOptions = route.body === false ? undefined : (route.body ?? {});
  /** A request with a body: read, then pre-validated, then handled. */
  const withBody = async (ctx: VigieContext, template: string, options: BodyOptions): Promise<void> => {
    await readBody(ctx, options, bodyDefaults);
    const checked = route.preValidation?.(ctx);
    if (isThenable(checked)) await checked;
    await handle(ctx, template);
  };
  const afterCheck = async (checked: PromiseLike<unknown>, ctx: VigieContext, template: string): Promise<void> => {
    await checked;
    await handle(ctx, template);
  };
  // Synchronous up to the handler when there is no body to read and nothing to wait for: no promise of its own.
  return (ctx: VigieContext, template: string): Promise<void> | undefined => {
    (ctx.state as unknown as RequestState).useScope(scope);
    try {
      let pending: Promise<void> | undefined;
      if (bodyOptions && (bodyMethods.has(ctx.req.method ?? '') || (bodyOptions.onDelete === true && ctx.req.method === 'DELETE'))) {
        pending = withBody(ctx, template, bodyOptions);
      } else {
        const checked = route.preValidation?.(ctx);
        pending = isThenable(checked) ? afterCheck(checked, ctx, template) : handle(ctx, template);
      }
      return pending?.catch((err: unknown) => {
        throw wordError(err, ctx, [route.errors, wording]);
      });
    } catch (err) {
      throw wordError(err, ctx, [route.errors, wording]);
    }
  };
}

/** A declared route as the route table holds it: the route, the path template it matched, its middleware. */
interface TableEntry {
  mounted: MountedRoute;
  path: string;
  /** A promise only when the route answers later (a body to read, an asynchronous handler). */
  run: (ctx: VigieContext, template: string) => Promise<void> | undefined;
}

/** The declared route a refused request asked for (public routes change nothing on anyone's behalf), if any. */
function refusedRoute(
  match: RouteMatch<TableEntry> | undefined,
  routers: RouterSet,
  method: string,
  path: string,
): { route: string; right: string | undefined; params: Record<string, string>; tally?: boolean } | undefined {
  // No match at all: the path was malformed (400), nothing was asked of a route.
  if (match === undefined) return undefined;
  if (match.found) {
    const { route } = match.target.mounted;
    if (route.public) return undefined;
    return { route: match.target.path, right: route.right, params: match.params, ...(route.audit === 'tally' ? { tally: true } : {}) };
  }
  if (routers.size === 0) return undefined;
  const routed = routers.match(method, path);
  return routed.found ? { route: routed.template, right: routed.right, params: {} } : undefined;
}

/** Builds the Koa application: one middleware that identifies the request, routes, authenticates, runs, renders errors. */
export function createHttpApp(options: HttpAppOptions, inFlight: InFlight): Koa<VigieState> {
  const app = new Koa<VigieState>();
  app.silent = true;
  nameContextAccessors(app.context);
  const table = new RouteTable<TableEntry>();
  for (const mounted of options.routes) {
    const run = routeMiddleware(mounted, options);
    const paths = typeof mounted.route.path === 'string' ? [mounted.route.path] : mounted.route.path;
    for (const path of paths) table.add(mounted.route.method, path, { mounted, path, run });
  }
  const routers = new RouterSet(options.routers);
  const observations = options.observations;
  // The id of a request that brings none: six random characters, then a count (a new six every 36^5 requests).
  // Under 13 characters, V8 makes it a flat string: a longer concatenated one made Node's header check take the slow
  // regular-expression path. With the check, a fifth of a random UUID's cost.
  let requestIdPrefix = '';
  let requestCount = requestsPerIdPrefix;
  const newRequestId = (): string => {
    if (requestCount === requestsPerIdPrefix) {
      requestIdPrefix = randomInt(36 ** 6).toString(36).padStart(6, '0');
      requestCount = 1;
    }
    return requestIdPrefix + (requestCount++).toString(36);
  };

  const admit = (ctx: Context, authenticator: Authenticator, outcome: AuthOutcome): void => {
    if (!outcome.ok && outcome.retryAfterSeconds !== undefined) {
      throw tooManyLogins(outcome.retryAfterSeconds);
    }
    if (!outcome.ok) {
      const description = outcome.message ?? (outcome.reason === 'missing' ? 'Authentication required' : 'Invalid credentials');
      throw new HttpError(401, description, { headers: { 'WWW-Authenticate': authenticator.challenge(ctx) } });
    }
    ctx.state.user = outcome.user;
  };

  /** Sets `ctx.state.user` or throws the 401; synchronous when the authenticator answers synchronously. */
  const authenticate = (ctx: Context): Promise<void> | undefined => {
    const authenticator = options.authenticator();
    if (!authenticator) throw new HttpError(401, 'Authentication is not configured', { headers: { 'WWW-Authenticate': 'Basic realm="vigie"' } });
    const outcome = authenticator.authenticate(ctx);
    if (isThenable(outcome)) return Promise.resolve(outcome).then((answered) => admit(ctx, authenticator, answered));
    admit(ctx, authenticator, outcome);
    return undefined;
  };

  app.use(async (ctx: Context) => {
    inFlight.enter();
    // Node's own header map and setHeader: Koa's delegating getters cost more than the work on this path.
    const given = ctx.req.headers['x-request-id'];
    const requestId = typeof given === 'string' && requestIdPattern.test(given) ? given : newRequestId();
    ctx.state = new RequestState(requestId, options.logger, ctx.req, options.clientOrigin);
    ctx.res.setHeader('X-Request-Id', requestId);
    const observed = observations.listens('http');
    const started = options.accessLog || observed ? performance.now() : 0;
    let template: string | undefined;
    // Read once: each of Koa's delegating getters costs a call chain on this path.
    const method = ctx.req.method ?? 'GET';
    const path = ctx.path;
    let match: RouteMatch<TableEntry> | undefined;
    // Set once a handler is about to run: a refusal after that point is the handler's, recorded by `audited`.
    let handlerReached = false;
    try {
      try {
        match = table.match(method, path);
      } catch (err) {
        if (!(err instanceof MalformedPathError)) throw err;
        const pending = authenticate(ctx);
        if (pending) await pending;
        throw new HttpError(400, err.message);
      }
      if (match.found) template = match.target.path;
      if (!match.found || !match.target.mounted.route.public) {
        const pending = authenticate(ctx);
        if (pending) await pending;
      }
      if (!match.found) {
        let allowed: string[] | undefined;
        if (routers.size > 0) {
          const routed = routers.match(method, path);
          if (routed.found) {
            // The boot check gave every router route a right; one it could not see (a layer added later) is refused.
            if (routed.right === undefined || !holdsRight(ctx.state.user?.rights, routed.right)) throw missingRight(routed.right ?? 'of an undeclared route');
            handlerReached = true;
            const routing = runRouter(ctx as VigieContext, options, routed, method, path);
            if (routing) await routing;
            return;
          }
          allowed = [...new Set([...match.allowed, ...routed.allowed])];
        }
        allowed ??= match.allowed;
        if (allowed.length === 0) throw new HttpError(404, `No route matches ${method} ${path}`);
        ctx.set('Allow', allowed.join(', '));
        if (method === 'OPTIONS') {
          ctx.status = 204;
          return;
        }
        throw new HttpError(405, 'Method not allowed', { headers: { Allow: allowed.join(', ') } });
      }
      const { right } = match.target.mounted.route;
      if (right !== undefined && !holdsRight(ctx.state.user?.rights, right)) throw missingRight(right);
      (ctx as VigieContext).params = match.params;
      handlerReached = true;
      const running = match.target.run(ctx as VigieContext, match.target.path);
      if (running) await running;
    } catch (err) {
      if (!handlerReached && isHttpError(err) && refusalStatuses.has(err.status)) {
        const refused = refusedRoute(match, routers, method, path);
        if (refused) await recordRefusal(ctx, options, err, refused);
      }
      render(ctx, err, ctx.state.log);
    } finally {
      // The answer may show writes the store has not made durable yet (a job's, another request's): it leaves once
      // they are, or as the store's failure if one of them failed.
      const durable = options.durable?.();
      if (durable) await durable.catch((err: unknown) => render(ctx, err, ctx.state.log));
      inFlight.leave();
      if (options.accessLog || observed) {
        const ms = performance.now() - started;
        // A router route's template is what @koa/router matched (set even when its handler threw).
        const route = template ?? (ctx as { _matchedRoute?: string })._matchedRoute;
        if (observed) observations.http({ method, route, status: ctx.res.statusCode, seconds: ms / 1000 });
        if (options.accessLog) {
          ctx.state.log.info({ method, path, status: ctx.res.statusCode, ms: Math.round(ms * 10) / 10, user: ctx.state.user?.name }, 'request');
        }
      }
    }
  });
  return app;
}
