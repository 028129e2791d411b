import { randomUUID } from 'node:crypto';
import { update as mingoUpdate } from 'mingo';
import { assertNoCodeExecution } from '@vigie/filter-safety';
import { copyJson } from './copy-json.js';
import { fastUpdate } from './fast-update.js';
import { KeptSearches } from './kept-searches.js';
import { compileMatcher, FieldIndex, lookupKeys, projectCopy, sortDocs, type OrderedKey } from './query-plan.js';
import {
  DuplicateKeyError,
  VigieError,
  ErrorCodes,
  updateOperators,
  type BatchOperation,
  type BatchResult,
  type Collection,
  type DeleteResult,
  type Doc,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Store,
  type Update,
  type UpsertOptions,
  type WriteResult,
} from '@vigie/kernel';
import { adoptJson, cloneJson, jsonEqual } from '@vigie/json';

/** One document's fate in a committed change: `after` null means deleted, `before` null means inserted. */
export interface DocChange {
  collection: string;
  id: string;
  before: Doc | null;
  after: Doc | null;
}

export interface ResolvedIndexSpec {
  keys: Record<string, 1 | -1>;
  unique: boolean;
  name: string;
}

/**
 * Where an engine makes its changes durable, called in commit order before the in-memory state changes. A call
 * that throws fails the operation and leaves memory as it was. A call may instead hand the write to another thread
 * and return a promise: memory then changes at once and the operation settles when the promise does, so callers
 * still learn of success only once the write is durable. Such a write failing later leaves memory ahead of the
 * disk, which nothing can take back: the engine stops (see `DocumentEngine.stopped`).
 */
export interface EnginePersistence {
  writeChanges(changes: readonly DocChange[], createdCollections: readonly string[]): void | Promise<void>;
  writeIndex(collection: string, spec: ResolvedIndexSpec): void | Promise<void>;
  dropCollection(collection: string): void | Promise<void>;
}

interface UniqueIndex {
  spec: ResolvedIndexSpec;
  paths: string[];
  owners: Map<string, string>;
}

interface CollectionState {
  docs: Map<string, Doc>;
  indexes: Map<string, ResolvedIndexSpec>;
  unique: UniqueIndex[];
  /** Secondary indexes by field path (the first key of every declared index): they narrow the documents a query reads. */
  fields: Map<string, FieldIndex>;
  /** Counts kept up to date at each write, by the JSON text of their filter, least recently asked for first. */
  keptCounts: Map<string, KeptCount>;
  /**
   * Filters counted once and not kept: a count is kept when its filter comes again (a filter holding the time, or a
   * one-off, would only cost the writes). Oldest first, at most `maxKeptCounts * 2`.
   */
  countedOnce: Set<string>;
  /** Literal searches (the alarm list's `search`) kept up to date at each write: see `KeptSearches`. */
  searches: KeptSearches;
}

/**
 * The count of one filter, kept: each document written in the collection is tested before and after, and the count
 * moves by the difference. A screen that asks for the same counts again and again (the alarm counters, a list's
 * total) then costs a lookup instead of a pass over the documents, and every write pays two tests per kept count.
 */
interface KeptCount {
  test: (doc: Doc) => boolean;
  count: number;
  /** Documents written in the collection since the count was last asked for. */
  writesSinceAsked: number;
}

/** Counts kept per collection at most: the least recently asked for is dropped for a new one. */
const maxKeptCounts = 32;
/** A kept count nobody asked for during this many document writes of its collection is dropped (it costs every write). */
const keptCountIdleWrites = 100_000;

/** The documents a query must look at, and what of its filter is still to be checked on them. */
interface Plan {
  candidates: Doc[];
  residual: Filter;
}

const allowedUpdateOperators = new Set<string>(updateOperators);

/**
 * A walk in index order reads at most this many times the documents its page needs before it gives up for the plan
 * (a filter that refuses most documents would have it read them all, one index key at a time). It is not tried at all
 * when an equality index selects at most twice the page: reading those and selecting the page among them is cheaper.
 */
const orderedWalkFactor = 20;

/**
 * The in-memory document engine behind the memory store and the SQLite store: documents live in maps,
 * queries and updates follow MongoDB semantics through mingo, and every write goes through a change set
 * that is checked (unique keys), handed to the persistence, then applied — so a write the persistence refuses
 * at once changes nothing, and one it fails later stops the engine.
 */
export class DocumentEngine {
  readonly #collections = new Map<string, CollectionState>();
  readonly #persistence: EnginePersistence | undefined;
  /** Settles when the last write handed to an asynchronous persistence is durable (writes complete in order). */
  #written: Promise<void> = Promise.resolve();
  /** Writes handed to the persistence and not yet settled. */
  #unsettled = 0;
  #stopped: Error | undefined;
  /** Counts every change of the documents: what a kept result is checked against. */
  #version = 0;
  /**
   * The version at each collection's last change, dropped collections included (a collection made again after a
   * drop must not come back to a stamp it had before).
   */
  readonly #stamps = new Map<string, number>();
  /** The documents the last count read and tested: a find with the same filter (the page after its count) reuses them. */
  #lastCount: CountedMatch | undefined;

  constructor(persistence?: EnginePersistence) {
    this.#persistence = persistence;
  }

  /** Set once an asynchronous write failed: memory holds changes the disk does not, so no operation may go on. */
  get stopped(): Error | undefined {
    return this.#stopped;
  }

  /** Settles once every write committed so far is durable; rejects if one of them failed. */
  durable(): Promise<void> {
    return this.#written;
  }

  /** Whether a write that reads already see is not yet durable. */
  get undurable(): boolean {
    return this.#unsettled > 0;
  }

  #track(write: void | Promise<void>): void {
    if (!write) return;
    this.#unsettled += 1;
    this.#written = write.then(
      () => {
        this.#unsettled -= 1;
      },
      (err: unknown) => {
        this.#unsettled -= 1;
        this.#stopped ??= new VigieError(ErrorCodes.StoreFailure, `the store stopped after a failed write: ${(err as Error).message}; restart to go on from what is stored`, {
          cause: err,
        });
        throw this.#stopped;
      },
    );
    // Nobody may be waiting: the failure is kept in `stopped`, not reported as an unhandled rejection.
    this.#written.catch(() => undefined);
  }

  /** Loads stored state at open time, without persisting it again. */
  load(collection: string, docs: Iterable<Doc>, indexes: Iterable<ResolvedIndexSpec> = []): void {
    this.#version += 1;
    this.#stamps.set(collection, this.#version);
    const state = this.#state(collection, true);
    state.keptCounts.clear();
    state.countedOnce.clear();
    state.searches.clear();
    for (const doc of docs) state.docs.set(doc._id, doc);
    for (const spec of indexes) this.#installIndex(collection, state, spec);
  }

  /**
   * A number that grows whenever documents of `collection` change (at the commit, before any read can see the
   * change): what a cache of documents read from it is checked against. 0 for a collection never written.
   */
  writeStamp(collection: string): number {
    return this.#stamps.get(collection) ?? 0;
  }

  collectionNames(): string[] {
    return [...this.#collections.keys()].sort();
  }

  hasCollection(name: string): boolean {
    return this.#collections.has(name);
  }

  #state(name: string, create: boolean): CollectionState {
    let state = this.#collections.get(name);
    if (!state) {
      state = { docs: new Map(), indexes: new Map(), unique: [], fields: new Map(), keptCounts: new Map(), countedOnce: new Set(), searches: new KeptSearches() };
      if (create) this.#collections.set(name, state);
    }
    return state;
  }

  // ---- reads ---------------------------------------------------------------------------------------------

  /** Matching documents, sorted and paged, as stored (callers copy what they hand out; projection is theirs). */
  find(collection: string, filter: Filter = {}, options: Omit<FindOptions, 'projection'> = {}, tx?: ChangeSet): Doc[] {
    checkFilter(filter);
    const page = tx ? undefined : this.#pageInIndexOrder(collection, filter, options);
    if (page) return page;
    let docs = tx ? undefined : this.#lastCount?.reuse(collection, filter, this.#version);
    if (!docs && tx) {
      const plan = this.plan(collection, filter, tx.overlayOf(collection));
      docs = Object.keys(plan.residual).length === 0 ? plan.candidates : matching(plan.candidates, plan.residual);
    }
    // Outside a batch, as a count reads: the whole collection in order when an index would select a large part of it.
    docs ??= this.#matchingInPlace(collection, filter);
    const skip = options.skip ?? 0;
    // A page needs the first skip + limit documents of the order only.
    if (options.sort && Object.keys(options.sort).length > 0) docs = sortDocs(docs, options.sort, options.limit ? skip + options.limit : undefined);
    if (skip > 0 || options.limit) docs = docs.slice(skip, options.limit ? skip + options.limit : undefined);
    return docs;
  }

  /**
   * The number of documents a filter matches. The count of a filter made of plain conditions (`keepable`) asked for a
   * second time is kept and maintained at each write (see `KeptCount`), so asking again costs a lookup.
   */
  count(collection: string, filter: Filter = {}): number {
    checkFilter(filter);
    const state = this.#collections.get(collection);
    const text = state && Object.keys(filter).length > 0 && !pinnedIds(filter) && keepable(filter) ? jsonText(filter) : null;
    const kept = text === null ? undefined : state?.keptCounts.get(text);
    if (state && text !== null && kept) {
      kept.writesSinceAsked = 0;
      // Last in the map's order: the most recently asked for.
      state.keptCounts.delete(text);
      state.keptCounts.set(text, kept);
      return kept.count;
    }
    let n = this.#countFromIndexes(collection, filter);
    if (n === null) {
      const matched = this.#matchingInPlace(collection, filter);
      this.#lastCount = new CountedMatch(collection, filter, this.#version, matched);
      n = matched.length;
    }
    if (state && text !== null && state.countedOnce.delete(text)) {
      if (state.keptCounts.size >= maxKeptCounts) state.keptCounts.delete(state.keptCounts.keys().next().value as string);
      state.keptCounts.set(text, { test: compileMatcher(filter), count: n, writesSinceAsked: 0 });
    } else if (state && text !== null) {
      if (state.countedOnce.size >= maxKeptCounts * 2) state.countedOnce.delete(state.countedOnce.values().next().value as string);
      state.countedOnce.add(text);
    }
    return n;
  }

  /** Moves the kept counts of a collection by one document's change; drops those nobody asked for in a long while. */
  #maintainCounts(state: CollectionState, change: DocChange): void {
    for (const [text, kept] of state.keptCounts) {
      if (++kept.writesSinceAsked > keptCountIdleWrites) {
        state.keptCounts.delete(text);
        continue;
      }
      try {
        kept.count += (change.after && kept.test(change.after) ? 1 : 0) - (change.before && kept.test(change.before) ? 1 : 0);
      } catch {
        // A document the filter cannot be tested on (mingo refused it): the count is computed again when asked.
        state.keptCounts.delete(text);
      }
    }
  }

  /**
   * The documents matching a filter, as `plan` then `matching` find them, but testing each candidate as it is read
   * instead of first gathering every candidate (a count over 100,000 open alarms that keeps a few builds no array of
   * 100,000), and reading the whole collection in order when the index would select a large part of it anyway. A
   * literal search asked for before is answered from its kept texts (`KeptSearches`).
   */
  #matchingInPlace(collection: string, filter: Filter): Doc[] {
    const state = this.#collections.get(collection);
    if (!state || pinnedIds(filter)) {
      const plan = this.plan(collection, filter);
      return Object.keys(plan.residual).length === 0 ? plan.candidates : matching(plan.candidates, plan.residual);
    }
    const searched = state.searches.matching(filter, state.docs, state.fields, this.#searchScope(state));
    if (searched) return searched;
    const index = this.#narrowestIndex(state, filter);
    const matched: Doc[] = [];
    // An index's documents of one key are read as they are held; those of several keys are told apart by id.
    if (!index || (index.keys.length > 1 && scanPays(index.size, state.docs.size))) {
      const test = compileMatcher(filter);
      for (const doc of state.docs.values()) if (test(doc)) matched.push(doc);
      return matched;
    }
    // The condition the index answered exactly is not tested again (as in `plan`).
    const residual = Object.fromEntries(Object.entries(filter).filter(([field]) => field !== index.field)) as Filter;
    const test = Object.keys(residual).length === 0 ? null : compileMatcher(residual);
    index.index.forEachDoc(index.keys, (doc) => {
      if (!test || test(doc)) matched.push(doc);
    });
    return matched;
  }

  /**
   * Picks the documents a filter can match: a direct lookup when it pins `_id`, else the narrowest secondary
   * index among its top-level equality/`$in` conditions, else the whole collection. The condition an index (or the
   * `_id` lookup) answered exactly is dropped from what remains to check. Pending writes of a batch (`overlay`)
   * take precedence over stored documents.
   */
  plan(collection: string, filter: Filter, overlay?: Map<string, Doc | null>): Plan {
    const state = this.#collections.get(collection);
    const current = (id: string, stored: Doc | undefined): Doc | undefined => (overlay?.has(id) ? (overlay.get(id) ?? undefined) : stored);
    const ids = pinnedIds(filter);
    if (ids) {
      const candidates: Doc[] = [];
      // The ids may repeat: those found are told apart (a million ids of which none is stored need no set).
      const found = ids.length > 1 ? new Set<string>() : undefined;
      for (const id of ids) {
        const doc = current(id, state?.docs.get(id));
        if (!doc || found?.has(id)) continue;
        found?.add(id);
        candidates.push(doc);
      }
      const { _id: _answered, ...residual } = filter;
      return { candidates, residual };
    }
    const best = this.#narrowestIndex(state, filter);
    const candidates: Doc[] = [];
    if (best) {
      best.index.forEachDoc(best.keys, (doc) => {
        if (!overlay?.has(doc._id)) candidates.push(doc);
      });
      // Pending writes are not in the index: they are all looked at, with the whole filter.
      const pending = overlay ? [...overlay.values()].filter((d): d is Doc => d !== null) : [];
      if (pending.length === 0) {
        const { [best.field]: _answered, ...residual } = filter;
        return { candidates, residual };
      }
      return { candidates: [...candidates, ...pending], residual: filter };
    }
    if (state) {
      for (const [id, doc] of state.docs) {
        const visible = current(id, doc);
        if (visible) candidates.push(visible);
      }
    }
    if (overlay) for (const [id, doc] of overlay) if (doc && !state?.docs.has(id)) candidates.push(doc);
    return { candidates, residual: filter };
  }

  /**
   * The count of a filter whose every condition an index answers (`{v.resolved: null, v.state.val: 3}`), from the
   * indexes alone: the ids of the narrowest, kept when every other index holds them too. Null for any other filter.
   */
  #countFromIndexes(collection: string, filter: Filter): number | null {
    const state = this.#collections.get(collection);
    const conditions = conjunction(filter);
    if (!state || !conditions || conditions.length === 0 || pinnedIds(filter)) return null;
    const lookups: { index: FieldIndex; keys: string[]; size: number }[] = [];
    for (const [field, condition] of conditions) {
      const index = state.fields.get(field);
      const keys = index?.usable ? lookupKeys(condition) : null;
      if (!index || !keys) return null;
      lookups.push({ index, keys, size: index.size(keys) });
    }
    lookups.sort((a, b) => a.size - b.size);
    const [narrowest, ...others] = lookups as [(typeof lookups)[number], ...typeof lookups];
    if (others.length === 0) return narrowest.index.count(narrowest.keys);
    let n = 0;
    if (scanPays(narrowest.size, state.docs.size)) {
      const test = compileMatcher(filter);
      for (const doc of state.docs.values()) if (test(doc)) n += 1;
      return n;
    }
    narrowest.index.forEachDoc(narrowest.keys, (doc) => {
      if (others.every((other) => other.index.has(other.keys, doc._id))) n += 1;
    });
    return n;
  }

  /**
   * A page (`limit`, after `skip`) of a find sorted first on an indexed field, read by walking that index in the
   * sort's order and testing each document until the page is full, instead of reading every candidate: a page of 50
   * among 100,000 open alarms reads about 50 of them. Undefined when this does not apply or does not pay (no index
   * on the first sort key, an index met arrays, an equality index selects few enough documents to read them all, or
   * the filter refuses so many documents that the walk reads past its budget).
   */
  #pageInIndexOrder(collection: string, filter: Filter, options: Omit<FindOptions, 'projection'>): Doc[] | undefined {
    const { sort, limit } = options;
    if (!sort || !limit) return undefined;
    const [first] = Object.entries(sort);
    const state = this.#collections.get(collection);
    const index = first ? state?.fields.get(first[0]) : undefined;
    if (!first || !state || !index?.orderable || pinnedIds(filter)) return undefined;
    const skip = options.skip ?? 0;
    const wanted = skip + limit;
    const narrowest = this.#narrowestIndex(state, filter);
    if (narrowest && narrowest.size <= wanted * 2) return undefined;
    const full = Object.keys(filter).length === 0 ? null : compileMatcher(filter);
    // A literal search kept for the filter tells most documents apart before its regexes are run on them.
    const candidate = full && state.searches.candidateTest(filter, state.fields, this.#searchScope(state));
    const test = candidate ? (doc: Doc) => candidate(doc) && full!(doc) : full;
    const keys = index.orderedKeys();
    const page: Doc[] = [];
    // A filter few documents match would have the walk read them all, slower than the plan: past this many documents
    // read for a page not yet full, the walk gives up.
    const budget = wanted * orderedWalkFactor;
    let read = 0;
    const group: Doc[] = [];
    // The documents of one key share its value, but for the key of null and missing (null sorts first): the other keys
    // order them.
    const { [first[0]]: _walked, ...rest } = sort;
    const withinKey = Object.keys(rest).length > 0 ? rest : sort;
    for (let i = 0; i < keys.length && page.length < wanted; i++) {
      if (read > budget) return undefined;
      const { key, docs } = keys[first[1] === -1 ? keys.length - 1 - i : i] as OrderedKey;
      group.length = 0;
      read += docs.size;
      for (const doc of docs.values()) if (!test || test(doc)) group.push(doc);
      if (group.length === 1) page.push(group[0] as Doc);
      else if (group.length > 1) for (const doc of sortDocs(group, key === 'null' ? sort : withinKey, wanted - page.length)) page.push(doc);
    }
    return page.slice(skip, wanted);
  }

  /** Where a kept search of a collection looks: the narrowest index of the rest of its filter. */
  #searchScope(state: CollectionState): (rest: Filter) => ({ field: string; keys: string[]; index: FieldIndex; condition: unknown } | undefined) {
    return (rest) => {
      const scope = this.#narrowestIndex(state, rest);
      return scope && { ...scope, condition: rest[scope.field] };
    };
  }

  /** The narrowest usable secondary index among the filter's top-level equality/`$in` conditions, if any. */
  #narrowestIndex(state: CollectionState | undefined, filter: Filter): { field: string; keys: string[]; index: FieldIndex; size: number } | undefined {
    let best: { field: string; keys: string[]; index: FieldIndex; size: number } | undefined;
    if (!state || state.fields.size === 0) return undefined;
    for (const [field, condition] of Object.entries(filter)) {
      const index = state.fields.get(field);
      const keys = index?.usable ? lookupKeys(condition) : null;
      if (!index || !keys) continue;
      const size = index.size(keys);
      if (!best || size < best.size) best = { field, keys, index, size };
    }
    return best;
  }

  get(collection: string, id: string): Doc | undefined {
    return this.#collections.get(collection)?.docs.get(id);
  }

  // ---- writes --------------------------------------------------------------------------------------------

  /** Runs `work` against a fresh change set and commits it; nothing is applied if `work` or the commit throws. */
  transaction<R>(work: (tx: ChangeSet) => R): R {
    const tx = new ChangeSet(this);
    const result = work(tx);
    this.#commit(tx);
    return result;
  }

  #commit(tx: ChangeSet): void {
    const changes = tx.changes();
    if (changes.length === 0 && tx.createdCollections.size === 0) return;
    this.#version += 1;
    this.#checkUnique(changes);
    const created = [...tx.createdCollections].filter((c) => !this.#collections.has(c));
    this.#track(this.#persistence?.writeChanges(changes, created));
    for (const name of created) this.#state(name, true);
    let stamped: string | undefined;
    for (const change of changes) {
      // Stamped once per run of changes to one collection: an import commits a million changes to a few.
      if (change.collection !== stamped) this.#stamps.set((stamped = change.collection), this.#version);
      const state = this.#state(change.collection, true);
      for (const index of state.unique) {
        if (change.before) {
          const key = indexKey(change.before, index.paths);
          if (index.owners.get(key) === change.id) index.owners.delete(key);
        }
      }
      if (change.before && change.after) for (const index of state.fields.values()) index.replace(change.before, change.after);
      else if (change.before) for (const index of state.fields.values()) index.remove(change.before);
      else if (change.after) for (const index of state.fields.values()) index.add(change.after);
      if (change.after) state.docs.set(change.id, change.after);
      else state.docs.delete(change.id);
      if (state.keptCounts.size > 0) this.#maintainCounts(state, change);
      if (state.searches.size > 0) state.searches.maintain(change.id, change.after);
      for (const index of state.unique) if (change.after) index.owners.set(indexKey(change.after, index.paths), change.id);
    }
  }

  #checkUnique(changes: readonly DocChange[]): void {
    const byCollection = new Map<string, DocChange[]>();
    for (const c of changes) {
      // Most collections have no unique index beyond `_id`: nothing to check, nor to gather (a million changes for an import).
      if (!this.#collections.get(c.collection)?.unique.length) continue;
      const list = byCollection.get(c.collection) ?? [];
      list.push(c);
      byCollection.set(c.collection, list);
    }
    for (const [collection, list] of byCollection) {
      const state = this.#collections.get(collection);
      if (!state) continue;
      const changedIds = new Set(list.map((c) => c.id));
      for (const index of state.unique) {
        const claimed = new Map<string, string>();
        for (const change of list) {
          if (!change.after) continue;
          const key = indexKey(change.after, index.paths);
          const other = claimed.get(key);
          const owner = index.owners.get(key);
          if ((other !== undefined && other !== change.id) || (owner !== undefined && owner !== change.id && !changedIds.has(owner))) {
            throw new DuplicateKeyError(collection, keyObject(change.after, index.paths), index.spec.name);
          }
          claimed.set(key, change.id);
        }
      }
    }
  }

  createIndex(collection: string, spec: IndexSpec): void {
    const resolved: ResolvedIndexSpec = {
      keys: { ...spec.keys },
      unique: spec.unique === true,
      name: spec.name ?? Object.entries(spec.keys).map(([k, d]) => `${k}_${d}`).join('_'),
    };
    if (Object.keys(resolved.keys).length === 0) throw new VigieError(ErrorCodes.StoreFailure, 'an index needs at least one key');
    const existing = this.#collections.get(collection)?.indexes.get(resolved.name);
    if (existing) {
      if (jsonEqual(existing, resolved)) return;
      throw new VigieError(ErrorCodes.StoreFailure, `index ${resolved.name} already exists with different options`);
    }
    const state = this.#state(collection, false);
    if (resolved.unique) {
      const paths = Object.keys(resolved.keys);
      const seen = new Set<string>();
      for (const doc of state.docs.values()) {
        const key = indexKey(doc, paths);
        if (seen.has(key)) throw new DuplicateKeyError(collection, keyObject(doc, paths), resolved.name);
        seen.add(key);
      }
    }
    this.#track(this.#persistence?.writeIndex(collection, resolved));
    this.#installIndex(collection, this.#state(collection, true), resolved);
  }

  #installIndex(_collection: string, state: CollectionState, spec: ResolvedIndexSpec): void {
    state.indexes.set(spec.name, spec);
    const paths = Object.keys(spec.keys);
    const first = paths[0] as string;
    if (first !== '_id' && !state.fields.has(first)) {
      const index = new FieldIndex(first);
      for (const doc of state.docs.values()) index.add(doc);
      state.fields.set(first, index);
    }
    if (!spec.unique) return;
    const owners = new Map<string, string>();
    for (const doc of state.docs.values()) owners.set(indexKey(doc, paths), doc._id);
    state.unique.push({ spec, paths, owners });
  }

  indexes(collection: string): ResolvedIndexSpec[] {
    return [...(this.#collections.get(collection)?.indexes.values() ?? [])];
  }

  dropCollection(collection: string): void {
    if (!this.#collections.has(collection)) return;
    this.#track(this.#persistence?.dropCollection(collection));
    this.#collections.delete(collection);
    this.#version += 1;
    this.#stamps.set(collection, this.#version);
  }
}

/** The documents of a collection a filter matched, as of one version of the engine's documents. */
class CountedMatch {
  readonly #collection: string;
  readonly #filterText: string | null;
  readonly #version: number;
  readonly #docs: Doc[];

  constructor(collection: string, filter: Filter, version: number, docs: Doc[]) {
    this.#collection = collection;
    this.#filterText = jsonText(filter);
    this.#version = version;
    this.#docs = docs;
  }

  /** The matched documents, if nothing changed since and `filter` is the same; callers must not change the array. */
  reuse(collection: string, filter: Filter, version: number): Doc[] | undefined {
    if (version !== this.#version || collection !== this.#collection || this.#filterText === null) return undefined;
    return jsonText(filter) === this.#filterText ? this.#docs : undefined;
  }
}

/** The JSON text of a filter, or null when it holds anything else (a RegExp): such a filter is not compared. */
function jsonText(filter: Filter): string | null {
  let plain = true;
  const text = JSON.stringify(filter, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) plain = false;
    return value;
  });
  return plain ? text : null;
}

/** Pending writes of one operation or batch, visible to the later steps of the same batch. */
export class ChangeSet {
  readonly #engine: DocumentEngine;
  readonly #overlay = new Map<string, Map<string, Doc | null>>();
  readonly #before = new Map<string, Map<string, Doc | null>>();
  readonly createdCollections = new Set<string>();

  constructor(engine: DocumentEngine) {
    this.#engine = engine;
  }

  overlayOf(collection: string): Map<string, Doc | null> | undefined {
    return this.#overlay.get(collection);
  }

  matching(collection: string, filter: Filter, options: { sort?: FindOptions['sort']; limit?: number } = {}): Doc[] {
    return this.#engine.find(collection, filter, { sort: options.sort, limit: options.limit }, this);
  }

  get(collection: string, id: string): Doc | null {
    const overlay = this.#overlay.get(collection);
    if (overlay?.has(id)) return overlay.get(id) ?? null;
    return this.#engine.get(collection, id) ?? null;
  }

  put(collection: string, id: string, doc: Doc | null): void {
    let overlay = this.#overlay.get(collection);
    let before = this.#before.get(collection);
    if (!overlay || !before) {
      overlay = new Map();
      before = new Map();
      this.#overlay.set(collection, overlay);
      this.#before.set(collection, before);
    }
    if (!before.has(id)) before.set(id, this.#engine.get(collection, id) ?? null);
    overlay.set(id, doc);
    this.createdCollections.add(collection);
  }

  changes(): DocChange[] {
    const out: DocChange[] = [];
    for (const [collection, overlay] of this.#overlay) {
      const before = this.#before.get(collection) as Map<string, Doc | null>;
      for (const [id, after] of overlay) {
        const prior = before.get(id) ?? null;
        if (prior === null && after === null) continue;
        out.push({ collection, id, before: prior, after });
      }
    }
    return out;
  }

  // ---- operations, shared by single calls and batches --------------------------------------------------

  insert(collection: string, doc: Doc, handedOver = false): void {
    const stored = toStoredDoc(doc, handedOver);
    if (this.get(collection, stored._id)) throw new DuplicateKeyError(collection, { _id: stored._id });
    this.put(collection, stored._id, stored);
  }

  replace(collection: string, filter: Filter, doc: Doc, upsert: boolean, handedOver = false): WriteResult {
    // `{_id: x}` (an import replaces a million entities so) is a lookup, not a query.
    const [target] = isIdFilter(filter) ? [this.get(collection, filter._id)] : this.matching(collection, filter, { limit: 1 });
    const replacement = (handedOver ? adoptJson(doc) : cloneJson(doc)) as Record<string, unknown>;
    if (target) {
      if (replacement._id !== undefined && replacement._id !== target._id) {
        throw new VigieError(ErrorCodes.StoreFailure, 'the replacement document would change the immutable field _id');
      }
      const next = (replacement._id === undefined ? { ...replacement, _id: target._id } : replacement) as Doc;
      const modified = !jsonEqual(next, target);
      if (modified) this.put(collection, target._id, next);
      return { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedId: null };
    }
    if (!upsert) return { matchedCount: 0, modifiedCount: 0, upsertedId: null };
    const seed = equalityFields(filter);
    const id = replacement._id ?? seed._id ?? randomUUID();
    const inserted = toStoredDoc({ ...replacement, _id: id } as Doc);
    this.insert(collection, inserted);
    return { matchedCount: 0, modifiedCount: 0, upsertedId: inserted._id };
  }

  update(collection: string, filter: Filter, update: Update, options: { upsert: boolean; multi: boolean; sort?: FindOptions['sort'] }): {
    result: WriteResult;
    before: Doc | null;
    after: Doc | null;
  } {
    checkUpdate(update);
    const targets = this.matching(collection, filter, { sort: options.sort, limit: options.multi ? undefined : 1 });
    if (targets.length === 0) {
      if (!options.upsert) return { result: { matchedCount: 0, modifiedCount: 0, upsertedId: null }, before: null, after: null };
      const seed = equalityFields(filter) as Record<string, unknown>;
      const doc = applyUpdate({ ...seed }, update, true);
      if (doc._id === undefined) doc._id = randomUUID();
      const stored = toStoredDoc(doc as Doc);
      this.insert(collection, stored);
      return { result: { matchedCount: 0, modifiedCount: 0, upsertedId: stored._id }, before: null, after: stored };
    }
    let modified = 0;
    let first: { before: Doc; after: Doc } | null = null;
    for (const target of targets) {
      let stored: Doc;
      let changed: boolean;
      const fast = fastUpdate(target, update);
      if (fast) ({ doc: stored, changed } = fast);
      else {
        const next = applyUpdate(copyJson(target), update, false);
        if (next._id !== target._id) throw new VigieError(ErrorCodes.StoreFailure, 'an update may not change the immutable field _id');
        stored = toStoredDoc(next as Doc);
        changed = !jsonEqual(stored, target);
      }
      if (changed) {
        this.put(collection, target._id, stored);
        modified += 1;
      }
      first ??= { before: target, after: changed ? stored : target };
    }
    return {
      result: { matchedCount: targets.length, modifiedCount: modified, upsertedId: null },
      before: first?.before ?? null,
      after: first?.after ?? null,
    };
  }

  delete(collection: string, filter: Filter, multi: boolean): number {
    const targets = this.matching(collection, filter, { limit: multi ? undefined : 1 });
    for (const target of targets) this.put(collection, target._id, null);
    return targets.length;
  }
}

/** A document as the engine keeps it: checked, and copied unless the caller handed it over (`BatchOperation.handOver`). */
function toStoredDoc(doc: Doc, handedOver = false): Doc {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new VigieError(ErrorCodes.StoreFailure, 'a document must be an object');
  if (typeof doc._id !== 'string' || doc._id === '') throw new VigieError(ErrorCodes.StoreFailure, 'a document needs a non-empty string _id');
  return handedOver ? adoptJson(doc) : cloneJson(doc);
}

function checkFilter(filter: Filter): void {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw new VigieError(ErrorCodes.StoreFailure, 'a filter must be an object');
  }
  assertNoCodeExecution(filter);
}

function checkUpdate(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0) throw new VigieError(ErrorCodes.StoreFailure, 'an update needs at least one operator');
  for (const key of keys) {
    if (!allowedUpdateOperators.has(key)) throw new VigieError(ErrorCodes.StoreFailure, `update operator ${key} is not supported`);
  }
}

function applyUpdate(doc: Record<string, unknown>, update: Update, inserting: boolean): Record<string, unknown> {
  const { $setOnInsert, ...rest } = update;
  const modifier: Record<string, unknown> = { ...rest };
  if (inserting && $setOnInsert) modifier.$set = { ...$setOnInsert, ...(rest.$set ?? {}) };
  if (Object.keys(modifier).length > 0) {
    try {
      mingoUpdate(doc, modifier as never, undefined, undefined, { cloneMode: 'deep' });
    } catch (err) {
      throw new VigieError(ErrorCodes.StoreFailure, `invalid update: ${(err as Error).message}`, { cause: err });
    }
  }
  return doc;
}

function matching(docs: readonly Doc[], filter: Filter): Doc[] {
  const test = compileMatcher(filter);
  return docs.filter(test);
}

/** Query operators whose answer depends on the document alone (not `$expr`, which may read the time, nor `$where`). */
const plainOperators = new Set(['$and', '$or', '$nor', '$not', '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$type', '$regex', '$options', '$size', '$all', '$elemMatch', '$mod']);

/** Whether a filter uses plain operators only, so that its count can be kept (a document's match never changes by itself). */
function keepable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return value.every(keepable);
  for (const [key, inner] of Object.entries(value)) {
    if (key.startsWith('$') && !plainOperators.has(key)) return false;
    if (!keepable(inner)) return false;
  }
  return true;
}

/**
 * Whether reading every document of a collection in order and testing it costs less than reading the `selected`
 * documents an index gives when each needs a lookup by id (in another index, or among those already seen: a hash
 * lookup far in memory, several times the cost of stepping to the next document and testing it): past an eighth of the
 * collection the scan is cheaper.
 */
function scanPays(selected: number, documents: number): boolean {
  return selected * 8 > documents;
}

/**
 * The field conditions a filter requires together, its `$and` parts' included (`{$and: [{a: 1, b: 2}, {a: 3}]}` is
 * `a: 1`, `b: 2` and `a: 3`), or null when it holds any other operator at the top.
 */
function conjunction(filter: Filter): [field: string, condition: unknown][] | null {
  const out: [string, unknown][] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition) && condition.length > 0 && condition.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part))) {
      for (const part of condition as Filter[]) {
        const inner = conjunction(part);
        if (!inner) return null;
        out.push(...inner);
      }
    } else if (key.startsWith('$')) return null;
    else out.push([key, condition]);
  }
  return out;
}

/** Whether a filter is `{_id: <string>}` alone. */
function isIdFilter(filter: Filter): filter is { _id: string } {
  if (typeof filter._id !== 'string') return false;
  for (const key in filter) if (key !== '_id') return false;
  return true;
}

/** `_id` values a filter pins exactly (`{_id: x}`, `{_id: {$eq: x}}`, `{_id: {$in: [...]}}`, which may repeat), else null. */
function pinnedIds(filter: Filter): string[] | null {
  const id = filter._id;
  if (typeof id === 'string') return [id];
  if (typeof id === 'object' && id !== null && !Array.isArray(id)) {
    const ops = id as Record<string, unknown>;
    const keys = Object.keys(ops);
    if (keys.length === 1 && typeof ops.$eq === 'string') return [ops.$eq];
    if (keys.length === 1 && Array.isArray(ops.$in) && ops.$in.every((v) => typeof v === 'string')) return ops.$in as string[];
  }
  return null;
}

/** The fields an upsert seeds from its filter: plain equalities, `$eq`, and those inside `$and`. */
function equalityFields(filter: Filter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) Object.assign(out, equalityFields(part as Filter));
      continue;
    }
    if (key.startsWith('$')) continue;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const ops = value as Record<string, unknown>;
      const opKeys = Object.keys(ops);
      if (opKeys.some((k) => k.startsWith('$'))) {
        if ('$eq' in ops) setPath(out, key, ops.$eq);
        continue;
      }
    }
    setPath(out, key, value);
  }
  return out;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    const next = node[part];
    if (typeof next !== 'object' || next === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1] as string] = value;
}

function getPath(doc: unknown, path: string): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function indexKey(doc: Doc, paths: readonly string[]): string {
  return JSON.stringify(paths.map((p) => getPath(doc, p) ?? null));
}

function keyObject(doc: Doc, paths: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(paths.map((p) => [p, getPath(doc, p) ?? null]));
}

// ---- the Store over an engine --------------------------------------------------------------------------

/**
 * Copies what leaves the engine so callers can never mutate stored state. Stored documents are never changed in
 * place either (an update makes a new version sharing the untouched parts), so what a caller holds stays as read.
 */
function out<T>(doc: T): T {
  return copyJson(doc);
}

class EngineCollection<T extends Doc> implements Collection<T> {
  readonly name: string;
  readonly #engine: DocumentEngine;
  readonly #guard: () => void;

  constructor(name: string, engine: DocumentEngine, guard: () => void) {
    this.name = name;
    this.#engine = engine;
    this.#guard = guard;
  }

  /** Commits `work`, then waits until the store holds it durably. */
  async #write<R>(work: (tx: ChangeSet) => R): Promise<R> {
    const result = this.#engine.transaction(work);
    await this.#engine.durable();
    return result;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    this.#guard();
    const { projection, ...rest } = options;
    return this.#engine.find(this.name, filter, rest).map((doc) => (projection ? projectCopy(doc, projection) : out(doc))) as T[];
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    this.#guard();
    const { projection, ...rest } = options;
    const [doc] = this.#engine.find(this.name, filter, { ...rest, limit: 1 });
    if (!doc) return null;
    return (projection ? projectCopy(doc, projection) : out(doc)) as T;
  }

  async count(filter: Filter = {}): Promise<number> {
    this.#guard();
    return this.#engine.count(this.name, filter);
  }

  async insertOne(doc: T): Promise<void> {
    this.#guard();
    await this.#write((tx) => tx.insert(this.name, doc));
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    this.#guard();
    await this.#write((tx) => {
      for (const doc of docs) tx.insert(this.name, doc);
    });
  }

  async replaceOne(filter: Filter, doc: T, options: UpsertOptions = {}): Promise<WriteResult> {
    this.#guard();
    checkFilter(filter);
    return this.#write((tx) => tx.replace(this.name, filter, doc, options.upsert === true));
  }

  async updateOne(filter: Filter, update: Update, options: UpsertOptions = {}): Promise<WriteResult> {
    this.#guard();
    checkFilter(filter);
    return this.#write((tx) => tx.update(this.name, filter, update, { upsert: options.upsert === true, multi: false }).result);
  }

  async updateMany(filter: Filter, update: Update): Promise<WriteResult> {
    this.#guard();
    checkFilter(filter);
    return this.#write((tx) => tx.update(this.name, filter, update, { upsert: false, multi: true }).result);
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    this.#guard();
    checkFilter(filter);
    const { before, after } = await this.#write((tx) =>
      tx.update(this.name, filter, update, { upsert: options.upsert === true, multi: false, sort: options.sort }),
    );
    const chosen = options.returnDocument === 'before' ? before : after;
    return chosen ? (out(chosen) as T) : null;
  }

  async deleteOne(filter: Filter): Promise<DeleteResult> {
    this.#guard();
    checkFilter(filter);
    return { deletedCount: await this.#write((tx) => tx.delete(this.name, filter, false)) };
  }

  async deleteMany(filter: Filter): Promise<DeleteResult> {
    this.#guard();
    checkFilter(filter);
    return { deletedCount: await this.#write((tx) => tx.delete(this.name, filter, true)) };
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    this.#guard();
    this.#engine.createIndex(this.name, spec);
    await this.#engine.durable();
  }
}

/** A Store over a DocumentEngine; adapters add durability through the engine's persistence. */
export class EngineStore implements Store {
  protected readonly engine: DocumentEngine;
  readonly #collections = new Map<string, EngineCollection<Doc>>();
  #closed = false;
  readonly #onClose: (() => void | Promise<void>) | undefined;

  constructor(engine: DocumentEngine, onClose?: () => void | Promise<void>) {
    this.engine = engine;
    this.#onClose = onClose;
  }

  readonly #guard = (): void => {
    if (this.#closed) throw new VigieError(ErrorCodes.StoreFailure, 'the store is closed');
    if (this.engine.stopped) throw this.engine.stopped;
  };

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    if (!/^[A-Za-z0-9_.-]{1,120}$/.test(name)) throw new VigieError(ErrorCodes.StoreFailure, `invalid collection name ${JSON.stringify(name)}`);
    let coll = this.#collections.get(name);
    if (!coll) {
      coll = new EngineCollection<Doc>(name, this.engine, this.#guard);
      this.#collections.set(name, coll);
    }
    return coll as unknown as Collection<T>;
  }

  async batch(operations: readonly BatchOperation[]): Promise<BatchResult> {
    this.#guard();
    const result: BatchResult = { inserted: 0, matched: 0, modified: 0, upserted: 0, deleted: 0 };
    this.engine.transaction((tx) => {
      for (const operation of operations) {
        if ('filter' in operation) checkFilter(operation.filter);
        switch (operation.op) {
          case 'insert':
            tx.insert(operation.collection, operation.doc, operation.handOver === true);
            result.inserted += 1;
            break;
          case 'replace': {
            const r = tx.replace(operation.collection, operation.filter, operation.doc, operation.upsert === true, operation.handOver === true);
            accumulate(result, r);
            break;
          }
          case 'update': {
            const r = tx.update(operation.collection, operation.filter, operation.update, {
              upsert: operation.upsert === true,
              multi: operation.multi === true,
            }).result;
            accumulate(result, r);
            break;
          }
          case 'delete':
            result.deleted += tx.delete(operation.collection, operation.filter, operation.multi === true);
            break;
          default:
            throw new VigieError(ErrorCodes.StoreFailure, `unknown batch operation ${(operation as { op: string }).op}`);
        }
      }
    });
    await this.engine.durable();
    return result;
  }

  async listCollections(): Promise<string[]> {
    this.#guard();
    return this.engine.collectionNames();
  }

  writeStamp(collection: string): number {
    return this.engine.writeStamp(collection);
  }

  durable(): Promise<void> | undefined {
    return this.engine.undurable ? this.engine.durable() : undefined;
  }

  async dropCollection(name: string): Promise<void> {
    this.#guard();
    this.engine.dropCollection(name);
    await this.engine.durable();
  }

  async ping(): Promise<void> {
    this.#guard();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#onClose?.();
  }
}

function accumulate(total: BatchResult, r: WriteResult): void {
  total.matched += r.matchedCount;
  total.modified += r.modifiedCount;
  if (r.upsertedId !== null) total.upserted += 1;
}

/** A store that keeps everything in memory: for tests and throwaway runs. */
export function createMemoryStore(): EngineStore {
  return new EngineStore(new DocumentEngine());
}
