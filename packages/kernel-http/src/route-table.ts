/**
 * The kernel's router: exact paths in a map, parameterised paths matched segment by segment.
 * - `:name` matches one non-empty segment; `*name` matches the rest of the path, slashes included.
 * - A trailing slash is never significant, in declarations or requests (`*name` keeps what it captured).
 * - Exact paths win over parameterised ones; parameterised ones are tried in declaration order.
 * - Parameters are URL-decoded after matching, so `%2F` inside an id is a slash of the id, not a separator.
 */

interface Segment {
  kind: 'literal' | 'param' | 'rest';
  value: string;
}

interface DynamicRoute<T> {
  segments: Segment[];
  target: T;
}

export type RouteMatch<T> =
  | { found: true; target: T; params: Record<string, string> }
  /** The path exists with other methods (405), or not at all (`allowed` empty: 404); `allowed` may be worked out when first read. */
  | { found: false; readonly allowed: string[] };

export class MalformedPathError extends Error {}

/** Exact paths have no parameters: one shared, frozen object rather than a new one per request. */
const noParams: Record<string, string> = Object.freeze({}) as Record<string, string>;

function trimTrailingSlash(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end -= 1;
  return end === path.length ? path : path.slice(0, end);
}

function parse(path: string): Segment[] {
  return trimTrailingSlash(path)
    .split('/')
    .slice(1)
    .map((part): Segment => {
      if (part.startsWith(':')) return { kind: 'param', value: part.slice(1) };
      if (part.startsWith('*')) return { kind: 'rest', value: part.slice(1) };
      return { kind: 'literal', value: part };
    });
}

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new MalformedPathError(`malformed percent-encoding in ${JSON.stringify(raw)}`);
  }
}

/**
 * Leading literal segments that key the index of parameterised routes: a route whose first `indexedDepth`
 * segments are literal cannot match a path whose first parts differ, and `matchSegments` would return null on
 * those literals before decoding any parameter, so skipping it changes no answer.
 */
const indexedDepth = 3;

/** A method's parameterised routes by their first `indexedDepth` literal segments, each list in declaration order. */
interface DynamicIndex<T> {
  byPrefix: Map<string, DynamicRoute<T>[]>;
  /**
   * Routes with a parameter among their first segments, by their first segment when it is literal (each list with
   * the routes whose first segment is not, in declaration order): the candidates for a path no prefix above keys.
   */
  unindexedByFirst: Map<string, DynamicRoute<T>[]>;
  /** Routes whose first segment is a parameter: candidates for every path. */
  unindexedAny: DynamicRoute<T>[];
}

function indexRoutes<T>(routes: readonly DynamicRoute<T>[]): DynamicIndex<T> {
  const literalPrefix = (route: DynamicRoute<T>): string | null => {
    const head = route.segments.slice(0, indexedDepth);
    return head.length === indexedDepth && head.every((s) => s.kind === 'literal') ? head.map((s) => s.value).join('/') : null;
  };
  const firstLiteral = (route: DynamicRoute<T>): string | null => (route.segments[0]?.kind === 'literal' ? route.segments[0].value : null);
  const unindexed = routes.filter((route) => literalPrefix(route) === null);
  const byPrefix = new Map<string, DynamicRoute<T>[]>();
  for (const route of routes) {
    const prefix = literalPrefix(route);
    if (prefix !== null && !byPrefix.has(prefix)) byPrefix.set(prefix, routes.filter((r) => r === route || literalPrefix(r) === prefix || literalPrefix(r) === null));
  }
  const unindexedAny = unindexed.filter((route) => firstLiteral(route) === null);
  const unindexedByFirst = new Map<string, DynamicRoute<T>[]>();
  for (const route of unindexed) {
    const first = firstLiteral(route);
    if (first !== null && !unindexedByFirst.has(first)) unindexedByFirst.set(first, unindexed.filter((r) => firstLiteral(r) === first || firstLiteral(r) === null));
  }
  return { byPrefix, unindexedByFirst, unindexedAny };
}

export class RouteTable<T> {
  /** Exact paths, then methods, to their match: made once, as it never changes (it has no parameters). */
  readonly #exact = new Map<string, Map<string, RouteMatch<T>>>();
  readonly #dynamic = new Map<string, DynamicRoute<T>[]>();
  /** Built at the first match after a route was added. */
  #index: Map<string, DynamicIndex<T>> | undefined;

  add(method: string, path: string, target: T): void {
    const segments = parse(path);
    if (segments.every((s) => s.kind === 'literal')) {
      const key = trimTrailingSlash(path) || '/';
      let byMethod = this.#exact.get(key);
      if (!byMethod) {
        byMethod = new Map();
        this.#exact.set(key, byMethod);
      }
      byMethod.set(method, Object.freeze({ found: true, target, params: noParams }));
      return;
    }
    const restIndex = segments.findIndex((s) => s.kind === 'rest');
    if (restIndex >= 0 && restIndex !== segments.length - 1) throw new Error(`route ${path}: *${segments[restIndex]?.value} must be the last segment`);
    const list = this.#dynamic.get(method) ?? [];
    list.push({ segments, target });
    this.#dynamic.set(method, list);
    this.#index = undefined;
  }

  /** The parameterised routes of a method that may match this path, in declaration order. */
  #candidates(method: string, path: string): readonly DynamicRoute<T>[] {
    this.#index ??= new Map([...this.#dynamic].map(([m, routes]) => [m, indexRoutes(routes)]));
    const index = this.#index.get(method);
    if (!index) return [];
    const prefix = indexedPrefix(path);
    const listed = prefix === undefined ? undefined : index.byPrefix.get(prefix);
    if (listed) return listed;
    const firstEnd = path.indexOf('/', 1);
    return index.unindexedByFirst.get(firstEnd < 0 ? path.slice(1) : path.slice(1, firstEnd)) ?? index.unindexedAny;
  }

  match(method: string, rawPath: string): RouteMatch<T> {
    const path = trimTrailingSlash(rawPath) || '/';
    const lookup = method === 'HEAD' ? 'GET' : method;
    const hit = this.#exact.get(path)?.get(lookup);
    if (hit !== undefined) return hit;
    const plain = !rawPath.includes('%');
    const candidates = this.#candidates(lookup, path);
    // A path no parameterised route can match (one a mounted router answers) is not split.
    if (candidates.length > 0) {
      const parts = path.slice(1).split('/');
      for (const route of candidates) {
        const params = tried(route, parts, rawPath, plain);
        if (params) return { found: true, target: route.target, params };
      }
    }
    // With a '%', trying the other methods' routes may find a malformed parameter: reported here, as before.
    if (!plain) return { found: false, allowed: this.allowedMethods(rawPath) };
    // Otherwise worked out when asked: a request a mounted router answers never needs it.
    return new Miss(this, rawPath);
  }

  /** The methods with a route for this path (HEAD with GET), sorted: a 405's `Allow`. */
  allowedMethods(rawPath: string): string[] {
    const path = trimTrailingSlash(rawPath) || '/';
    const parts = path.slice(1).split('/');
    const plain = !rawPath.includes('%');
    const allowed = new Set(this.#exact.get(path)?.keys() ?? []);
    for (const other of this.#dynamic.keys()) {
      if (!allowed.has(other) && this.#candidates(other, path).some((r) => tried(r, parts, rawPath, plain) !== null)) allowed.add(other);
    }
    if (allowed.has('GET')) allowed.add('HEAD');
    return [...allowed].sort();
  }
}

/**
 * The first `indexedDepth` parts of a path as the index keys them (`api/v2/alarms`), found without splitting the
 * path; undefined when it has fewer parts.
 */
function indexedPrefix(path: string): string | undefined {
  let slash = 0;
  for (let depth = 1; depth < indexedDepth; depth++) {
    slash = path.indexOf('/', slash + 1);
    if (slash < 0) return undefined;
  }
  const end = path.indexOf('/', slash + 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

/**
 * A route's parameters for the path's parts, or null. Without a '%' no parameter can fail to decode, so a route
 * whose literals or length do not fit is skipped unread; with one, every route is tried as declared, so a malformed
 * parameter is reported as before.
 */
function tried<T>(route: DynamicRoute<T>, parts: readonly string[], rawPath: string, plain: boolean): Record<string, string> | null {
  return plain && !fits(route.segments, parts) ? null : matchSegments(route.segments, parts, rawPath);
}

/**
 * A miss whose allowed methods are worked out when first read. A class rather than an object literal with a getter,
 * which V8 builds through a runtime call costing more than the rest of the match.
 */
class Miss {
  readonly found = false;
  #allowed: string[] | undefined;

  constructor(
    private readonly table: RouteTable<unknown>,
    private readonly rawPath: string,
  ) {}

  get allowed(): string[] {
    return (this.#allowed ??= this.table.allowedMethods(this.rawPath));
  }
}

/** Whether a route's literal segments and length fit the path's parts (what `matchSegments` also checks), decoding nothing. */
function fits(segments: readonly Segment[], parts: readonly string[]): boolean {
  const last = segments.length - 1;
  if (segments[last]?.kind === 'rest' ? parts.length <= last : parts.length !== segments.length) return false;
  for (let i = 0; i <= last; i++) {
    const segment = segments[i] as Segment;
    if (segment.kind === 'literal' && parts[i] !== segment.value) return false;
  }
  return true;
}

function matchSegments(segments: readonly Segment[], parts: readonly string[], rawPath: string): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    if (segment.kind === 'rest') {
      if (i >= parts.length) return null;
      // The rest keeps a trailing slash the client sent: it may be part of an id.
      let rest = parts.slice(i).join('/');
      if (rawPath.endsWith('/') && !rest.endsWith('/')) rest += '/';
      if (rest === '') return null;
      params[segment.value] = decode(rest);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.kind === 'literal') {
      if (part !== segment.value) return null;
    } else {
      if (part === '') return null;
      params[segment.value] = decode(part);
    }
  }
  return parts.length === segments.length ? params : null;
}
