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

/** An index key and the value it stands for. */
export interface OrderedKey {
  key: string;
  value: unknown;
  /** The documents holding the key, by id: the index's own map, to read only. */
  docs: ReadonlyMap<string, Doc>;
}

/**
 * A non-unique index on one field path: index key ⇒ the documents holding it, by id. The documents themselves are
 * held (the stored versions), so that reading a key's documents costs no lookup by id in the collection.
 */
export class FieldIndex {
  readonly path: string;
  readonly #entries = new Map<string, Map<string, Doc>>();
  /**
   * Set once a document's path runs through an array (`list.k` over a list of sub-documents): MongoDB then matches
   * inside the array, which this index does not record, so it is no longer used to select documents.
   */
  #crossesArrays = false;
  /** Set once a document holds an array at the path: MongoDB sorts such documents by an element, not in key order. */
  #holdsArrays = false;
  /** The keys in MongoDB order, built at the first ordered read, then kept up to date at each (see `orderedKeys`). */
  #ordered: OrderedKey[] | null = null;
  /** Keys created since the last ordered read. */
  #addedKeys: string[] = [];
  /** Whether a key lost its last document since the last ordered read. */
  #removedKeys = false;

  constructor(path: string) {
    this.path = path;
  }

  get usable(): boolean {
    return !this.#crossesArrays;
  }

  /** Whether walking the keys in order gives the documents in the order of a sort on the path (no arrays met). */
  get orderable(): boolean {
    return !this.#crossesArrays && !this.#holdsArrays;
  }

  add(doc: Doc): void {
    if (!this.#crossesArrays && this.path.includes('.')) this.#crossesArrays = pathCrossesArray(doc, this.path);
    const value = resolvePath(doc, this.path);
    if (Array.isArray(value)) this.#holdsArrays = true;
    for (const key of valueKeys(value)) {
      let docs = this.#entries.get(key);
      if (!docs) {
        docs = new Map();
        this.#entries.set(key, docs);
        if (this.#ordered) this.#addedKeys.push(key);
      }
      docs.set(doc._id, doc);
    }
  }

  /**
   * The keys in ascending MongoDB order of their values. Kept between reads: the keys created since are sorted and
   * merged in, the emptied ones dropped, so a read after a few writes costs a pass over the keys, not a sort.
   */
  orderedKeys(): readonly OrderedKey[] {
    const orderedKey = (key: string): OrderedKey => ({ key, value: JSON.parse(key) as unknown, docs: this.#entries.get(key) as Map<string, Doc> });
    const byValue = (a: OrderedKey, b: OrderedKey) => compareValues(a.value, b.value);
    if (!this.#ordered) {
      this.#ordered = [...this.#entries.keys()].map(orderedKey).sort(byValue);
      this.#addedKeys = [];
      this.#removedKeys = false;
      return this.#ordered;
    }
    if (this.#addedKeys.length === 0 && !this.#removedKeys) return this.#ordered;
    const added = [...new Set(this.#addedKeys)].filter((key) => this.#entries.has(key));
    const addedSet = new Set(added);
    const fresh = added.map(orderedKey).sort(byValue);
    // A key emptied then created again is both kept and added: the added copy is the one merged in.
    const kept = this.#ordered.filter((entry) => !addedSet.has(entry.key) && (!this.#removedKeys || this.#entries.has(entry.key)));
    const merged: OrderedKey[] = [];
    let i = 0;
    let j = 0;
    while (i < kept.length || j < fresh.length) {
      if (j >= fresh.length || (i < kept.length && byValue(kept[i] as OrderedKey, fresh[j] as OrderedKey) <= 0)) merged.push(kept[i++] as OrderedKey);
      else merged.push(fresh[j++] as OrderedKey);
    }
    this.#ordered = merged;
    this.#addedKeys = [];
    this.#removedKeys = false;
    return merged;
  }

  /** `before` replaced by `after` (same `_id`): only the version held changes when the indexed value is the same scalar. */
  replace(before: Doc, after: Doc): void {
    const previous = resolvePath(before, this.path);
    if (previous === resolvePath(after, this.path) && (previous === undefined || isScalar(previous))) {
      if (!this.#crossesArrays && this.path.includes('.')) this.#crossesArrays = pathCrossesArray(after, this.path);
      this.#entries.get(valueKeys(previous)[0] as string)?.set(after._id, after);
      return;
    }
    this.remove(before);
    this.add(after);
  }

  remove(doc: Doc): void {
    for (const key of valueKeys(resolvePath(doc, this.path))) {
      const docs = this.#entries.get(key);
      docs?.delete(doc._id);
      if (docs?.size === 0) {
        this.#entries.delete(key);
        this.#removedKeys = true;
      }
    }
  }

  /** Whether the document `id` holds one of the keys. */
  has(keys: readonly string[], id: string): boolean {
    for (const key of keys) if (this.#entries.get(key)?.has(id)) return true;
    return false;
  }

  /** How many documents the keys select (an upper bound, for choosing the narrowest index). */
  size(keys: readonly string[]): number {
    let n = 0;
    for (const key of keys) n += this.#entries.get(key)?.size ?? 0;
    return n;
  }

  /** How many documents the keys select, each once (a document of several keys, through an array, counts once). */
  count(keys: readonly string[]): number {
    if (keys.length === 1) return this.#entries.get(keys[0] as string)?.size ?? 0;
    let n = 0;
    this.forEachDoc(keys, () => (n += 1));
    return n;
  }

  /** Calls `visit` with each document the keys select, once; the index's own maps are read, not copied, for one key. */
  forEachDoc(keys: readonly string[], visit: (doc: Doc) => void): void {
    if (keys.length === 1) {
      for (const doc of this.#entries.get(keys[0] as string)?.values() ?? []) visit(doc);
      return;
    }
    const seen = new Set<string>();
    for (const key of keys) {
      for (const [id, doc] of this.#entries.get(key) ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        visit(doc);
      }
    }
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

export type Matcher = (doc: Doc) => boolean;

/** What `plainValue` answers when the path meets an array or a scalar on the way: only mingo knows MongoDB's rules there. */
export const unsure = Symbol('unsure');

/** The value at a path through sub-documents only (undefined when missing), or `unsure`. */
function plainValue(doc: Doc, parts: readonly string[]): unknown {
  let node: unknown = doc;
  for (const part of parts) {
    if (node === undefined) return undefined;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return unsure;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * `plainValue` of one path, with the one- and two-part paths of most conditions (`d`, `v.output`) read without a loop:
 * a scan tests a search's seven fields on every open alarm.
 */
export function pathReader(path: string): (doc: Doc) => unknown {
  const parts = path.split('.');
  if (parts.length === 1) {
    const [field] = parts as [string];
    return (doc) => (doc as Record<string, unknown>)[field];
  }
  if (parts.length === 2) {
    const [outer, inner] = parts as [string, string];
    return (doc) => {
      const node = (doc as Record<string, unknown>)[outer];
      if (node === undefined) return undefined;
      if (typeof node !== 'object' || node === null || Array.isArray(node)) return unsure;
      return (node as Record<string, unknown>)[inner];
    };
  }
  return (doc) => plainValue(doc, parts);
}

const isPlainScalar = (v: unknown): boolean => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A direct test of one condition on a field, for the conditions the list and the rules use most (equality to a scalar
 * or null, `$in` over scalars, `$regex` with `i`/`m`/`s` options), or null for any other. A sub-document matches none
 * of them; `onUnsure` decides a document whose value is an array, or whose path meets an array or a scalar on the way.
 */
function fieldTest(path: string, condition: unknown, onUnsure: Matcher): Matcher | null {
  const read = pathReader(path);
  if (isPlainScalar(condition)) {
    return (doc) => {
      const value = read(doc);
      if (value === unsure || Array.isArray(value)) return onUnsure(doc);
      return condition === null ? value === undefined || value === null : value === condition;
    };
  }
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return null;
  const ops = condition as Record<string, unknown>;
  const names = Object.keys(ops);
  if (names.length === 1 && names[0] === '$in' && Array.isArray(ops.$in) && ops.$in.every(isPlainScalar)) {
    const wanted = new Set(ops.$in);
    return (doc) => {
      const value = read(doc);
      if (value === unsure || Array.isArray(value)) return onUnsure(doc);
      return wanted.has(value === undefined ? null : value);
    };
  }
  const options = ops.$options ?? '';
  if (typeof ops.$regex === 'string' && typeof options === 'string' && /^[ims]*$/.test(options) && names.every((name) => name === '$regex' || name === '$options')) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(ops.$regex, options);
    } catch {
      return null;
    }
    return (doc) => {
      const value = read(doc);
      if (value === unsure || Array.isArray(value)) return onUnsure(doc);
      return typeof value === 'string' && pattern.test(value);
    };
  }
  return null;
}

/**
 * A test of documents against `filter`, agreeing with mingo. Each top-level condition is tested on its own (they are a
 * conjunction): the common ones directly (see `fieldTest`; `$or` and `$and` of such conditions too), any other by
 * mingo; a document the direct test is unsure of goes to mingo for that condition only.
 */
export function compileMatcher(filter: Filter): Matcher {
  const tests: Matcher[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    let query: Query | undefined;
    const byMingo: Matcher = (doc) => (query ??= compileQuery({ [key]: condition })).test(doc);
    let test: Matcher | null = null;
    if ((key === '$or' || key === '$and') && Array.isArray(condition) && condition.length > 0 && condition.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part))) {
      const parts = (condition as Filter[]).map((part) => compileMatcher(part));
      test =
        key === '$or'
          ? (doc) => {
              for (const part of parts) if (part(doc)) return true;
              return false;
            }
          : (doc) => {
              for (const part of parts) if (!part(doc)) return false;
              return true;
            };
    } else if (!key.startsWith('$')) test = fieldTest(key, condition, byMingo);
    tests.push(test ?? byMingo);
  }
  if (tests.length === 1) return tests[0] as Matcher;
  return (doc) => {
    for (const test of tests) if (!test(doc)) return false;
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

/** MongoDB's order of two values: numbers with numbers and strings with strings directly, anything else by mingo. */
export function compareValues(a: unknown, b: unknown): number {
  // Two missing values (an unacknowledged alarm's `v.ack.t`) are the commonest tie of a multi-key sort.
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return compare(a as never, b as never);
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
      const c = compareValues(a.values[i], b.values[i]);
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
    if (kept.length === count) {
      // Most documents come after the last kept one: they are set aside without building their sort values (the
      // allocation that dominated the pass), comparing key by key. One equal to it comes after it (stability).
      const last = kept[count - 1] as Decorated;
      let c = 0;
      for (let i = 0; i < keys.length && c === 0; i++) {
        const key = keys[i] as (typeof keys)[number];
        c = compareValues(sortValue(doc, key.path, key.parts), last.values[i]) * key.direction;
      }
      if (c >= 0) continue;
    }
    const candidate = decorate(doc);
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
  let shape = projectionShapes.get(projection);
  if (!shape) projectionShapes.set(projection, (shape = projectionShape(projection)));
  const { paths, including, mixed } = shape;
  if (shape.topLevel) {
    // Top-level fields only (`{infos: 1}`): copied directly, without walking paths.
    const out: Record<string, unknown> = {};
    if (projection._id !== 0) out._id = doc._id;
    for (const [path] of paths) if (doc[path] !== undefined) out[path] = copyJson(doc[path]);
    return out as Doc;
  }
  if (!mixed && !including) {
    // Excluded fields are skipped while copying, not copied then deleted: the scans that leave out an alarm's steps
    // (the largest part of it) would otherwise copy them for every alarm.
    let excluded = exclusionTrees.get(projection);
    if (!excluded) exclusionTrees.set(projection, (excluded = exclusionTree(paths.map(([path]) => path))));
    const out = copyExcluding(doc, excluded);
    if (out) {
      if (projection._id === 0) delete out._id;
      return out as Doc;
    }
  }
  if (mixed || !including || paths.some(([path]) => pathCrossesArray(doc, path))) {
    return structuredClone(mingoFind([doc], {}, projection).all()[0] as Doc);
  }
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

/** What `projectCopy` needs to know of a projection, worked out once for the many documents of one read. */
interface ProjectionShape {
  /** The fields other than `_id`, with their 0 or 1. */
  paths: [string, unknown][];
  including: boolean;
  /** Inclusions and exclusions together (mingo's rules apply). */
  mixed: boolean;
  /** Only top-level fields included. */
  topLevel: boolean;
}

const projectionShapes = new WeakMap<Projection, ProjectionShape>();

function projectionShape(projection: Projection): ProjectionShape {
  const paths = Object.entries(projection).filter(([path]) => path !== '_id');
  const including = paths.length > 0 ? paths[0]?.[1] === 1 : projection._id !== 0;
  return {
    paths,
    including,
    mixed: paths.some(([, v]) => (v === 1) !== including),
    topLevel: including && paths.every(([path, value]) => value === 1 && !path.includes('.')),
  };
}

/** Excluded paths as a tree of their parts: `true` marks a field left out whole. */
interface ExclusionTree {
  [part: string]: ExclusionTree | true;
}

/** The tree of each projection object, built once for the many documents of one read. */
const exclusionTrees = new WeakMap<Projection, ExclusionTree>();

function exclusionTree(paths: readonly string[]): ExclusionTree {
  // Without a prototype, so that a field named like an Object method (`constructor`) is not taken for a rule.
  const root: ExclusionTree = Object.create(null) as ExclusionTree;
  for (const path of paths) {
    const parts = path.split('.');
    const leaf = parts.pop() as string;
    let node: ExclusionTree | undefined = root;
    for (const part of parts) {
      const next: ExclusionTree | true | undefined = node[part];
      // A parent already left out whole covers the longer path.
      if (next === true) {
        node = undefined;
        break;
      }
      node = next ?? (node[part] = Object.create(null) as ExclusionTree);
    }
    if (node) node[leaf] = true;
  }
  return root;
}

/**
 * A deep copy of a sub-document without the fields `excluded` marks; null when an excluded path crosses an array
 * (MongoDB's rules then apply to each element: mingo's work).
 */
function copyExcluding(doc: Record<string, unknown>, excluded: ExclusionTree): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) {
    const rule = excluded[key];
    if (rule === true) continue;
    const value = doc[key];
    if (rule && typeof value === 'object' && value !== null) {
      if (Array.isArray(value)) return null;
      const inner = copyExcluding(value as Record<string, unknown>, rule);
      if (!inner) return null;
      out[key] = inner;
    } else out[key] = copyJson(value);
  }
  return out;
}
