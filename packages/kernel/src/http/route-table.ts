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
  /** The path exists with other methods (405), or not at all (`allowed` empty: 404). */
  | { found: false; allowed: string[] };

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

export class RouteTable<T> {
  readonly #exact = new Map<string, Map<string, T>>();
  readonly #dynamic = new Map<string, DynamicRoute<T>[]>();

  /** Normalised shape of a path (parameter names erased), for duplicate detection. */
  static shape(path: string): string {
    return `/${parse(path)
      .map((s) => (s.kind === 'literal' ? s.value : s.kind === 'param' ? ':' : '*'))
      .join('/')}`.replace(/^\/\/$/, '/');
  }

  add(method: string, path: string, target: T): void {
    const segments = parse(path);
    if (segments.every((s) => s.kind === 'literal')) {
      const key = trimTrailingSlash(path) || '/';
      let byMethod = this.#exact.get(key);
      if (!byMethod) {
        byMethod = new Map();
        this.#exact.set(key, byMethod);
      }
      byMethod.set(method, target);
      return;
    }
    const restIndex = segments.findIndex((s) => s.kind === 'rest');
    if (restIndex >= 0 && restIndex !== segments.length - 1) throw new Error(`route ${path}: *${segments[restIndex]?.value} must be the last segment`);
    const list = this.#dynamic.get(method) ?? [];
    list.push({ segments, target });
    this.#dynamic.set(method, list);
  }

  match(method: string, rawPath: string): RouteMatch<T> {
    const path = trimTrailingSlash(rawPath) || '/';
    const lookup = method === 'HEAD' ? 'GET' : method;
    const exact = this.#exact.get(path);
    const hit = exact?.get(lookup);
    if (hit !== undefined) return { found: true, target: hit, params: noParams };
    const parts = path.split('/').slice(1);
    const dynamic = this.#dynamic.get(lookup);
    if (dynamic) {
      for (const route of dynamic) {
        const params = matchSegments(route.segments, parts, rawPath);
        if (params) return { found: true, target: route.target, params };
      }
    }
    const allowed = new Set(exact ? exact.keys() : []);
    for (const [other, routes] of this.#dynamic) {
      if (!allowed.has(other) && routes.some((r) => matchSegments(r.segments, parts, rawPath) !== null)) allowed.add(other);
    }
    if (allowed.has('GET')) allowed.add('HEAD');
    return { found: false, allowed: [...allowed].sort() };
  }
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
