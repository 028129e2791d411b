import type { FeatureScope } from '../refs.js';
import type { KoaRouterLike, RouterOptions, RouterRouteEntry } from '../feature.js';
import type { ErrorWording } from './error-wording.js';

/** A `@koa/router` router as the kernel mounts it: tried after the route table, with its feature's scope. */
export interface MountedRouter {
  featureId: string;
  router: KoaRouterLike;
  options: RouterOptions;
  scope: FeatureScope;
  wording: ErrorWording | undefined;
}

/** The routers' answer to a request the route table did not match; `right` is what the matched route needs. */
export type RouterMatch =
  | { found: true; mounted: MountedRouter; middleware: ReturnType<KoaRouterLike['routes']>; right: string | undefined }
  | { found: false; allowed: string[] };

interface RouterEntry {
  mounted: MountedRouter;
  middleware: ReturnType<KoaRouterLike['routes']>;
  /** The right of each route, by `<METHOD> <layer path>`. */
  rights: ReadonlyMap<string, string | undefined>;
}

/** Finds the first router with a route for this method and path; otherwise the methods its routes allow on the path. */
export class RouterSet {
  readonly #entries: RouterEntry[];

  constructor(routers: readonly MountedRouter[]) {
    this.#entries = routers.map((mounted) => ({
      mounted,
      middleware: mounted.router.routes(),
      rights: new Map(routerRoutes(mounted.featureId, mounted.router, mounted.options).map((e) => [`${e.method} ${e.path}`, e.right])),
    }));
  }

  get size(): number {
    return this.#entries.length;
  }

  match(method: string, path: string): RouterMatch {
    const allowed = new Set<string>();
    for (const entry of this.#entries) {
      const matched = entry.mounted.router.match(path, method);
      if (matched.route) {
        // HEAD is answered by the GET route; the first route layer is the one @koa/router runs.
        const asked = method === 'HEAD' ? 'GET' : method;
        const layer = matched.pathAndMethod.find((l) => l.methods.includes(asked) && typeof l.path === 'string');
        const right = layer ? entry.rights.get(`${asked} ${String(layer.path)}`) : undefined;
        return { found: true, mounted: entry.mounted, middleware: entry.middleware, right };
      }
      for (const layer of matched.path) for (const m of layer.methods) allowed.add(m);
    }
    return { found: false, allowed: [...allowed] };
  }
}

/** The routes of a router (middleware layers, which have no method, are not routes); HEAD is implied by GET. */
export function routerRoutes(featureId: string, router: KoaRouterLike, options: RouterOptions): RouterRouteEntry[] {
  // A prefix joined to '/' drops the slash: documentation keys match with or without a trailing one.
  const unslashed = (key: string): string => (key.length > 1 ? key.replace(/\/+$/, '') : key);
  const docs = new Map(Object.entries(options.docs ?? {}).map(([key, doc]) => [unslashed(key), doc]));
  const entries: RouterRouteEntry[] = [];
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    for (const method of layer.methods) {
      if (method === 'HEAD' && layer.methods.includes('GET')) continue;
      const doc = docs.get(unslashed(`${method} ${layer.path}`));
      const right = doc?.right ?? options.right;
      entries.push({ featureId, method, path: layer.path, ...(doc ? { doc } : {}), ...(right !== undefined ? { right } : {}) });
    }
  }
  return entries;
}
