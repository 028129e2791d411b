import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import { asValue, type AwilixContainer } from 'awilix';
import type { Logger } from '../log.js';
import type { Authenticator } from '../auth.js';
import { HttpError, isHttpError } from '../errors.js';
import type { RouteDefinition, VigieContext, VigieState } from '../feature.js';
import { readBody } from './body.js';
import { wordError, type ErrorWording } from './error-wording.js';

/** A route as the kernel mounts it: the definition plus the feature it belongs to. */
export interface MountedRoute {
  featureId: string;
  route: RouteDefinition;
  container: AwilixContainer;
  wording: ErrorWording | undefined;
}

export interface HttpAppOptions {
  routes: readonly MountedRoute[];
  /** Resolved lazily: the authenticating feature builds it at init. */
  authenticator: () => Authenticator | undefined;
  logger: Logger;
  bodyLimit: number;
  accessLog: boolean;
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
    if (this.#count === 0) for (const resolve of this.#waiters.splice(0)) resolve();
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

const bodyMethods = new Set(['POST', 'PUT', 'PATCH']);

function routeMiddleware(mounted: MountedRoute, bodyLimit: number) {
  const { route, container, wording } = mounted;
  return async (ctx: VigieContext): Promise<void> => {
    // The request scope is built on first use: many answers need no request-scoped service at all.
    let scope: AwilixContainer | undefined;
    Object.defineProperty(ctx.state, 'scope', {
      configurable: true,
      enumerable: true,
      get: () => {
        scope ??= container.createScope().register({
          requestId: asValue(ctx.state.requestId),
          log: asValue(ctx.state.log),
          user: asValue(ctx.state.user),
        });
        return scope;
      },
    });
    try {
      if (route.body !== false && bodyMethods.has(ctx.method)) {
        await readBody(ctx, route.body ?? {}, bodyLimit);
      }
      const result: unknown = await route.handler(ctx);
      if (result !== undefined && ctx.body === undefined) ctx.body = result;
    } catch (err) {
      throw wordError(err, ctx, [route.errors, wording]);
    } finally {
      if (scope) await scope.dispose();
    }
  };
}

/** Builds the Koa application: request context, error rendering, public routes, authentication, routes, 404. */
export function createHttpApp(options: HttpAppOptions, inFlight: InFlight): Koa<VigieState> {
  const app = new Koa<VigieState>();
  app.silent = true;
  const publicRouter = new Router<VigieState>();
  const privateRouter = new Router<VigieState>();
  for (const mounted of options.routes) {
    const router = mounted.route.public ? publicRouter : privateRouter;
    const paths = typeof mounted.route.path === 'string' ? [mounted.route.path] : [...mounted.route.path];
    for (const path of paths) {
      router.register(path, [mounted.route.method], routeMiddleware(mounted, options.bodyLimit) as never);
    }
  }

  app.use(async (ctx: Context, next: Next) => {
    inFlight.enter();
    const given = ctx.get('x-request-id');
    const requestId = requestIdPattern.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    // The request's logger is made on first use, like the scope: most requests log nothing.
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      configurable: true,
      enumerable: true,
      get: () => (log ??= options.logger.child({ requestId })),
    });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 404) throw new HttpError(404, `No route matches ${ctx.method} ${ctx.path}`);
    } catch (err) {
      render(ctx, err, ctx.state.log);
    } finally {
      inFlight.leave();
      if (options.accessLog) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, user: ctx.state.user?.name }, 'request');
      }
    }
  });

  app.use(publicRouter.routes());

  app.use(async (ctx: Context, next: Next) => {
    const authenticator = options.authenticator();
    if (!authenticator) throw new HttpError(401, 'Authentication is not configured', { headers: { 'WWW-Authenticate': 'Basic realm="vigie"' } });
    const outcome = await authenticator.authenticate(ctx);
    if (!outcome.ok) {
      const description = outcome.message ?? (outcome.reason === 'missing' ? 'Authentication required' : 'Invalid credentials');
      throw new HttpError(401, description, { headers: { 'WWW-Authenticate': authenticator.challenge() } });
    }
    ctx.state.user = outcome.user;
    await next();
  });

  app.use(privateRouter.routes());
  app.use(
    privateRouter.allowedMethods({
      throw: true,
      methodNotAllowed: () => new HttpError(405, 'Method not allowed'),
      notImplemented: () => new HttpError(501, 'Not implemented'),
    }),
  );
  return app;
}
