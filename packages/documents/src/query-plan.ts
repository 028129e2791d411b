import { Query, find as mingoFind } from 'mingo';
import { compare, resolve } from 'mingo/util';
import type { Doc, Filter, Projection, SortSpec } from '@vigie/kernel';
import { copyJson } from './copy-json.js';

/**
 * The pieces that make the engine's reads cheap: secondary indexes on single fields, compiled queries kept for
 * reuse, and sorting and projection done directly rather than through a mingo cursor per call.
 */

/** Index keys of a stored value: arrays are indexed by themselves and by each element (as MongoDB multikey indexes). */
export function valueKeys(value: unknown): string[] {
  if (value === undefined || value === null) return ['null'];
  if (Array.isArray(value)) {
    const keys = new Set<string>([JSON.stringify(value)]);
    for (const item of value) keys.add(item === undefined || item === null ? 'null' : JSON.stringify(item));
    return [...keys];
  }
  return [JSON.stringify(value)];
}

const isScalar = (v: unknown): boolean => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * The index keys a condition on one field selects exactly, or null when an index cannot answer it: equality to a
 * scalar or null, `$eq`, or `$in` over scalars. (Equality to objects is left to the matcher: key order varies.)
 */
export function lookupKeys(condition: unknown): string[] | null {
  if (isScalar(condition)) return [condition === null ? 'null' : JSON.stringify(condition)];
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return null;
  const ops = condition as Record<string, unknown>;
  const names = Object.keys(ops);
  if (names.length !== 1) return null;
  if (names[0] === '$eq' && isScalar(ops.$eq)) return [ops.$eq === null ? 'null' : JSON.stringify(ops.$eq)];
  if (names[0] === '$in' && Array.isArray(ops.$in) && ops.$in.every(isScalar)) {
    return [...new Set(ops.$in.map((v) => (v === null ? 'null' : JSON.stringify(v))))];
  }
  return null;
}

/** A non-unique index on one field path: index key ⇒ ids of the documents holding it. */
export class FieldIndex {
  readonly path: string;
  readonly #entries = new Map<string, Set<string>>();
  /**
   * Set once a document's path runs through an array (`list.k` over a list of sub-documents): MongoDB then matches
   * inside the array, which this index does not record, so it is no longer used to select documents.
   */
  #crossesArrays = false;

  constructor(path: string) {
    this.path = path;
  }

  get usable(): boolean {
    return !this.#crossesArrays;
  }

  add(doc: Doc): void {
    if (!this.#crossesArrays && this.path.includes('.')) this.#crossesArrays = pathCrossesArray(doc, this.path);
    for (const key of valueKeys(resolvePath(doc, this.path))) {
      let ids = this.#entries.get(key);
      if (!ids) {
        ids = new Set();
        this.#entries.set(key, ids);
      }
      ids.add(doc._id);
    }
  }

  /** `before` replaced by `after` (same `_id`): nothing to do when the indexed value is the same scalar. */
  replace(before: Doc, after: Doc): void {
    const previous = resolvePath(before, this.path);
    if (previous === resolvePath(after, this.path) && (previous === undefined || isScalar(previous))) {
      if (!this.#crossesArrays && this.path.includes('.')) this.#crossesArrays = pathCrossesArray(after, this.path);
      return;
    }
    this.remove(before);
    this.add(after);
  }

  remove(doc: Doc): void {
    for (const key of valueKeys(resolvePath(doc, this.path))) {
      const ids = this.#entries.get(key);
      ids?.delete(doc._id);
      if (ids?.size === 0) this.#entries.delete(key);
    }
  }

  /** How many ids the keys select (an upper bound, for choosing the narrowest index). */
  size(keys: readonly string[]): number {
    let n = 0;
    for (const key of keys) n += this.#entries.get(key)?.size ?? 0;
    return n;
  }

  ids(keys: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (const key of keys) for (const id of this.#entries.get(key) ?? []) out.add(id);
    return out;
  }
}

function pathCrossesArray(doc: unknown, path: string): boolean {
  const parts = path.split('.');
  let node: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[parts[i] as string];
    if (Array.isArray(node)) return true;
  }
  return false;
}

/** The value at a dotted path, without MongoDB's array traversal (index paths name plain fields). */
export function resolvePath(doc: unknown, path: string): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

// Compiling a query costs tens of microseconds (mingo copies and normalises the condition); reads repeat the same
// filters, so compiled queries are kept, keyed by their JSON text.
const compiledQueries = new Map<string, Query>();
const maxCompiledQueries = 500;

function hasOnlyJson(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint';
  if (Array.isArray(value)) return value.every(hasOnlyJson);
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every(hasOnlyJson);
}

export function compileQuery(filter: Filter): Query {
  if (!hasOnlyJson(filter)) return new Query(filter);
  const key = JSON.stringify(filter);
  let query = compiledQueries.get(key);
  if (query) {
    // Refresh its place: the map's order is the eviction order.
    compiledQueries.delete(key);
  } else {
    query = new Query(filter);
    if (compiledQueries.size >= maxCompiledQueries) {
      const oldest = compiledQueries.keys().next();
      if (!oldest.done) compiledQueries.delete(oldest.value);
    }
  }
  compiledQueries.set(key, query);
  return query;
}

/**
 * A test of documents against `filter`. A filter of equalities to scalars or null on plain paths (the common
 * residue of a plan: `{'v.resolved': null}`) is tested directly; a document whose path meets an array, null or a
 * scalar on the way, or holds an object or array, is left to mingo, as is any other filter.
 */
export function compileMatcher(filter: Filter): (doc: Doc) => boolean {
  const equalities: [parts: string[], wanted: unknown][] = [];
  for (const [path, wanted] of Object.entries(filter)) {
    if (path.startsWith('$') || !(wanted === null || typeof wanted === 'string' || typeof wanted === 'boolean' || (typeof wanted === 'number' && Number.isFinite(wanted)))) {
      const query = compileQuery(filter);
      return (doc) => query.test(doc);
    }
    equalities.push([path.split('.'), wanted]);
  }
  let query: Query | undefined;
  return (doc) => {
    for (const [parts, wanted] of equalities) {
      let node: unknown = doc;
      for (const part of parts) {
        if (node === undefined) break;
        if (typeof node !== 'object' || node === null || Array.isArray(node)) return (query ??= compileQuery(filter)).test(doc);
        node = (node as Record<string, unknown>)[part];
      }
      if (typeof node === 'object' && node !== null) return (query ??= compileQuery(filter)).test(doc);
      if (wanted === null ? node !== undefined && node !== null : node !== wanted) return false;
    }
    return true;
  };
}

/** The sort value of `doc` at `path`: a direct walk through sub-documents; mingo's resolution where an array is met. */
function sortValue(doc: Doc, path: string, parts: readonly string[]): unknown {
  let node: unknown = doc;
  for (const part of parts) {
    if (node === undefined || node === null) return undefined;
    if (typeof node !== 'object' || Array.isArray(node)) return resolve(doc, path);
    node = (node as Record<string, unknown>)[part];
  }
  return Array.isArray(node) ? resolve(doc, path) : node;
}

interface Decorated {
  doc: Doc;
  values: unknown[];
}

/**
 * Stable MongoDB-order sort on one or more fields. With `count` (the skip plus the limit of a page), only the first
 * `count` documents of that order are returned, selected in one pass that keeps them in a sorted buffer instead of
 * sorting every document: a page of 50 among 100,000 compares most documents with the buffer's last one only.
 */
export function sortDocs(docs: readonly Doc[], sort: SortSpec, count?: number): Doc[] {
  const keys = Object.entries(sort).map(([path, direction]) => ({ path, parts: path.split('.'), direction: direction ?? 1 }));
  const decorate = (doc: Doc): Decorated => ({ doc, values: keys.map((key) => sortValue(doc, key.path, key.parts)) });
  const order = (a: Decorated, b: Decorated): number => {
    for (let i = 0; i < keys.length; i++) {
      const c = compare(a.values[i] as never, b.values[i] as never);
      if (c !== 0) return c * (keys[i]?.direction ?? 1);
    }
    return 0;
  };
  // Selection pays when the page is a small part of the documents; a sort is as good otherwise.
  if (count === undefined || count * 8 >= docs.length) {
    const decorated = docs.map(decorate);
    decorated.sort(order);
    return (count === undefined ? decorated : decorated.slice(0, count)).map((d) => d.doc);
  }
  const kept: Decorated[] = [];
  for (const doc of docs) {
    const candidate = decorate(doc);
    // A document equal to the last kept one comes after it (stability): it enters only when strictly before.
    if (kept.length === count && order(candidate, kept[count - 1] as Decorated) >= 0) continue;
    // The first kept position the candidate sorts strictly before (after every equal one, for stability).
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (order(candidate, kept[middle] as Decorated) < 0) high = middle;
      else low = middle + 1;
    }
    kept.splice(low, 0, candidate);
    if (kept.length > count) kept.pop();
  }
  return kept.map((d) => d.doc);
}

/**
 * A projected deep copy of a stored document. Plain inclusion or exclusion of fields and dotted paths through
 * sub-documents is done here; paths that cross arrays go to mingo, which knows MongoDB's rules for them.
 */
export function projectCopy(doc: Doc, projection: Projection): Doc {
  const entries = Object.entries(projection);
  const paths = entries.filter(([path]) => path !== '_id');
  const including = paths.length > 0 ? paths[0]?.[1] === 1 : projection._id !== 0;
  const crossesArray = paths.some(([path]) => pathCrossesArray(doc, path));
  if (crossesArray || paths.some(([, v]) => (v === 1) !== including)) {
    return structuredClone(mingoFind([doc], {}, projection).all()[0] as Doc);
  }
  if (including) {
    const out: Record<string, unknown> = {};
    if (projection._id !== 0) out._id = doc._id;
    for (const [path] of paths) {
      const value = resolvePath(doc, path);
      if (value === undefined) continue;
      const parts = path.split('.');
      let node = out;
      for (let i = 0; i < parts.length - 1; i++) {
        const part = parts[i] as string;
        if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
        node = node[part] as Record<string, unknown>;
      }
      node[parts[parts.length - 1] as string] = copyJson(value);
    }
    return out as Doc;
  }
  const out = copyJson(doc) as Record<string, unknown>;
  if (projection._id === 0) delete out._id;
  for (const [path] of paths) {
    const parts = path.split('.');
    let node: unknown = out;
    for (let i = 0; i < parts.length - 1; i++) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[parts[i] as string] : undefined;
    if (typeof node === 'object' && node !== null) delete (node as Record<string, unknown>)[parts[parts.length - 1] as string];
  }
  return out as Doc;
}
