import type { KoaRouterLike, MountedRouter, RouterRouteEntry } from '@vigie/kernel';

type RouterMiddleware = ReturnType<KoaRouterLike['routes']>;
type RouterNext = () => Promise<void>;

/** The context fields @koa/router's dispatch sets (it keeps them for the route's middleware). */
interface RouterContext {
  request: { params?: Record<string, string> };
  params?: Record<string, string>;
  captures?: string[];
  matched?: unknown[];
  router?: unknown;
  routeMatched?: boolean;
  routerPath?: string | RegExp;
  routerName?: string | undefined;
  _matchedRoute?: string | RegExp;
  _matchedRouteName?: string;
}

/**
 * What the kernel runs itself of a @koa/router (15) route layer with one middleware: its path's captures and
 * parameters, and that middleware. Layers of another shape are left to the router's own dispatch.
 */
interface DispatchableLayer {
  path: string | RegExp;
  name?: string | null;
  stack: readonly [(ctx: RouterContext, next: RouterNext) => unknown];
  captures(path: string): string[];
  params(path: string, captures: string[], existing?: Record<string, string>): Record<string, string>;
}

function dispatchable(layer: unknown): layer is DispatchableLayer {
  const candidate = layer as { stack?: unknown; captures?: unknown; params?: unknown } | undefined;
  return Array.isArray(candidate?.stack) && candidate.stack.length === 1 && typeof candidate.captures === 'function' && typeof candidate.params === 'function';
}

/**
 * Whether the kernel may run a router's matched layer itself: @koa/router then dispatches on `ctx.path` whatever the
 * host (no `host` or `routerPath` option), so the kernel's match of that path is the one it would make.
 */
function directDispatch(router: KoaRouterLike): boolean {
  const options = (router as { opts?: { routerPath?: unknown; host?: unknown } }).opts;
  return !(router as { host?: unknown }).host && !options?.routerPath && !options?.host;
}

/** The routers' answer to a request the route table did not match; `right` is what the matched route needs. */
export type RouterMatch =
  | {
      found: true;
      mounted: MountedRouter;
      middleware: RouterMiddleware;
      template: string;
      right: string | undefined;
      /** The one layer matched, when the kernel runs it itself (`runRouted`); else the router's middleware runs. */
      layer: DispatchableLayer | undefined;
      /** The layers matching the path, whatever their methods (@koa/router's `ctx.matched`). */
      matchedPath: readonly unknown[];
    }
  | { found: false; allowed: string[] };

interface RouterEntry {
  mounted: MountedRouter;
  middleware: RouterMiddleware;
  direct: boolean;
  /** The right of each route, by method then layer path (no key to build per request). */
  rights: ReadonlyMap<string, ReadonlyMap<string, string | undefined>>;
}

function rightsByMethod(entries: readonly RouterRouteEntry[]): Map<string, Map<string, string | undefined>> {
  const rights = new Map<string, Map<string, string | undefined>>();
  for (const { method, path, right } of entries) {
    const byPath = rights.get(method) ?? new Map<string, string | undefined>();
    byPath.set(path, right);
    rights.set(method, byPath);
  }
  return rights;
}

/** Finds the first router with a route for this method and path; otherwise the methods its routes allow on the path. */
export class RouterSet {
  readonly #entries: RouterEntry[];

  constructor(routers: readonly MountedRouter[]) {
    this.#entries = routers.map((mounted) => ({
      mounted,
      middleware: mounted.router.routes(),
      direct: directDispatch(mounted.router),
      rights: rightsByMethod(mounted.routes),
    }));
  }

  get size(): number {
    return this.#entries.length;
  }

  match(method: string, path: string): RouterMatch {
    // Made only when no router has the route: a request a router answers needs none.
    let allowed: Set<string> | undefined;
    for (const entry of this.#entries) {
      const matched = entry.mounted.router.match(path, method);
      if (matched.route) {
        // HEAD is answered by the GET route; the first route layer is the one @koa/router runs.
        const asked = method === 'HEAD' ? 'GET' : method;
        let layer: (typeof matched.pathAndMethod)[number] | undefined;
        for (const candidate of matched.pathAndMethod) {
          if (candidate.methods.includes(asked) && typeof candidate.path === 'string') {
            layer = candidate;
            break;
          }
        }
        const right = layer ? entry.rights.get(asked)?.get(String(layer.path)) : undefined;
        const only = matched.pathAndMethod.length === 1 ? matched.pathAndMethod[0] : undefined;
        return {
          found: true,
          mounted: entry.mounted,
          middleware: entry.middleware,
          template: layer ? String(layer.path) : path,
          right,
          layer: entry.direct && dispatchable(only) ? only : undefined,
          matchedPath: matched.path,
        };
      }
      allowed ??= new Set();
      for (const layer of matched.path) for (const m of layer.methods) allowed.add(m);
    }
    return { found: false, allowed: [...(allowed ?? [])] };
  }
}

/**
 * Runs the route a router matched, as `router.routes()` would. One layer with one middleware (most routes) is run
 * here: @koa/router's dispatch would match the path a second time and compose a chain for the request; this sets
 * the context fields it sets, from the kernel's match of the same path (`ctx.path`, which nothing rewrote since),
 * then calls the middleware.
 */
export function runRouted(routed: Extract<RouterMatch, { found: true }>, koaContext: object, path: string, next: RouterNext): unknown {
  const { layer } = routed;
  if (!layer) return routed.middleware(koaContext, next);
  const ctx = koaContext as RouterContext;
  ctx.matched = ctx.matched ? [...ctx.matched, ...routed.matchedPath] : (routed.matchedPath as unknown[]);
  ctx.router = routed.mounted.router;
  ctx.routeMatched = true;
  ctx.captures = layer.captures(path);
  ctx.request.params = layer.params(path, ctx.captures, ctx.params);
  ctx.params = ctx.request.params;
  ctx.routerPath = layer.path;
  ctx.routerName = layer.name || undefined;
  ctx._matchedRoute = layer.path;
  if (layer.name) ctx._matchedRouteName = layer.name;
  return layer.stack[0](ctx, next);
}
