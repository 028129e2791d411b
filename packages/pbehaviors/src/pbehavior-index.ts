import { inject, injectable } from 'tsyringe';
import { Query } from 'mingo';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { pbehaviorsConfig, type PbehaviorsConfig } from './config.js';
import type { PbehaviorRecord } from './pbehavior.js';
import { PbehaviorRepository } from './pbehavior-repository.js';
import { Schedule } from './schedule.js';

/** One pbehavior in memory, with its compiled schedule and filter. */
export interface IndexedPbehavior {
  readonly record: PbehaviorRecord;
  /** Null when the stored timing cannot be evaluated (such a pbehavior is never active). */
  readonly schedule: Schedule | null;
  /** The only entity ids the filter can select, when it pins `_id` at its top level; null otherwise. */
  readonly pinned: readonly string[] | null;
}

/** The fields that decide a pbehavior's occurrences, as one text: equal texts, equal occurrences. */
export function timingKey(record: PbehaviorRecord): string {
  return JSON.stringify([record.tstart, record.tstop, record.rrule, record.timezone, record.exdate]);
}

/** `{_id: x}`, `{_id: {$eq: x}}`, `{_id: {$in: [...]}}` (with or without other conditions) pin the selectable ids. */
function pinnedIds(filterText: string): string[] | null {
  let filter: unknown;
  try {
    filter = JSON.parse(filterText);
  } catch {
    return null;
  }
  const id = typeof filter === 'object' && filter !== null ? (filter as Record<string, unknown>)._id : undefined;
  if (typeof id === 'string') return [id];
  if (typeof id !== 'object' || id === null || Object.keys(id).length !== 1) return null;
  const { $eq, $in } = id as { $eq?: unknown; $in?: unknown };
  if (typeof $eq === 'string') return [$eq];
  if (Array.isArray($in) && $in.every((item) => typeof item === 'string')) return $in as string[];
  return null;
}

/**
 * Adds to `fields` the first segment of every field path a filter names at document level (inside `$and`, `$or`,
 * `$nor`); what is under a field is about that field. Null when an operator could read other fields (`$expr`…).
 */
function filterFields(filter: unknown, fields: Set<string>): Set<string> | null {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return null;
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(value)) return null;
      for (const clause of value) if (filterFields(clause, fields) === null) return null;
    } else if (key.startsWith('$')) return null;
    else fields.add(key.split('.')[0] as string);
  }
  return fields;
}

function addTo(map: Map<string, Set<IndexedPbehavior>>, key: string, entry: IndexedPbehavior): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(entry);
}

function removeFrom(map: Map<string, Set<IndexedPbehavior>>, key: string, entry: IndexedPbehavior): void {
  const set = map.get(key);
  set?.delete(entry);
  if (set?.size === 0) map.delete(key);
}

/**
 * Every pbehavior in memory, by id and by entity id, so that "which pbehaviors are active on these entities now"
 * costs map lookups and remembered schedule answers instead of a scan of `default_pbehavior` and of every recurrence.
 * Writes made through this feature update it at once. Those of other Vigie nodes reach it through the store's change
 * notifications (the next use reloads it first) where the store has them, and in any case once it is older than
 * `[pbehaviors] refresh_seconds`.
 */
@injectable()
export class PbehaviorIndex {
  #entries = new Map<string, IndexedPbehavior>();
  #byEntity = new Map<string, Set<IndexedPbehavior>>();
  /** Pbehaviors by the ids their filter pins, and those whose filter pins none: who may select a given entity. */
  #byPinnedId = new Map<string, Set<IndexedPbehavior>>();
  #unpinned = new Set<IndexedPbehavior>();
  readonly #queries = new WeakMap<PbehaviorRecord, Query | null>();
  readonly #fields = new WeakMap<PbehaviorRecord, ReadonlySet<string> | null>();
  #loadedAtMs: number | null = null;
  #loading: Promise<void> | null = null;
  #reloadScheduled = false;
  /** A write landed while a reload was reading the store: the reload's picture may miss it. */
  #writtenDuringLoad = false;
  /** Counts the store's notices that the pbehaviors changed (another node's write, or this one's). */
  #storeChanges = 0;
  /** `#storeChanges` when the last finished load started: the notices it may have missed come after. */
  #loadedChanges = -1;

  constructor(
    @inject(PbehaviorRepository) private readonly repository: PbehaviorRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(pbehaviorsConfig.ref) private readonly config: PbehaviorsConfig,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {
    repository.watch(() => {
      this.#storeChanges += 1;
    });
  }

  /**
   * The index, loaded. The first call waits for the load, and so does the first after the store told of a change;
   * later ones answer at once and, when the index is older than `refresh_seconds`, reload it after the current work
   * (only other nodes' writes can be missing from it).
   */
  async ready(): Promise<this> {
    // A change the store told of is waited for: the next event must see a pbehavior written through another node. A
    // reload already under way may have read the store before that change: then one more follows it.
    const told = this.#storeChanges;
    if (this.#loadedAtMs === null || this.#loadedChanges < told) {
      await this.#reload();
      if (this.#loadedChanges < told) await this.#reload();
      return this;
    }
    const age = this.clock.nowMs() - this.#loadedAtMs;
    if ((age > this.config.refresh_seconds * 1000 || age < 0) && !this.#loading && !this.#reloadScheduled) {
      this.#reloadScheduled = true;
      setImmediate(() => {
        this.#reloadScheduled = false;
        this.#reload().catch((err: unknown) => this.logger.error({ err }, 'reloading the pbehavior index failed'));
      });
    }
    return this;
  }

  #reload(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = null;
    });
    return this.#loading;
  }

  entries(): IterableIterator<IndexedPbehavior> {
    return this.#entries.values();
  }

  /** A pbehavior by id. */
  get(id: string): IndexedPbehavior | undefined {
    return this.#entries.get(id);
  }

  /** The pbehaviors whose `eids` hold this entity. */
  on(entityId: string): ReadonlySet<IndexedPbehavior> {
    return this.#byEntity.get(entityId) ?? emptySet;
  }

  /** The pbehaviors whose filter may select this entity, or whose `eids` hold it. */
  mayConcern(entityId: string): Set<IndexedPbehavior> {
    return new Set([...this.on(entityId), ...(this.#byPinnedId.get(entityId) ?? emptySet), ...this.#unpinned]);
  }

  /** The indexed schedule of a record when its timing is the indexed one, else a new one. */
  scheduleOf(record: PbehaviorRecord): Schedule | null {
    const indexed = this.#entries.get(record._id);
    if (indexed && timingKey(indexed.record) === timingKey(record)) return indexed.schedule;
    return this.#compile(record);
  }

  /** The filter of an indexed pbehavior, compiled once; null when it cannot be evaluated. */
  queryOf(entry: IndexedPbehavior): Query | null {
    let query = this.#queries.get(entry.record);
    if (query === undefined) {
      try {
        query = new Query(JSON.parse(entry.record.filter) as Record<string, unknown>);
      } catch (err) {
        this.logger.warn({ err, pbehavior: entry.record._id }, 'pbehavior filter cannot be evaluated; its eids are left as they are');
        query = null;
      }
      this.#queries.set(entry.record, query);
    }
    return query;
  }

  /**
   * The top-level entity fields the filter of an indexed pbehavior reads (`_id` always), so the entities it is
   * tested on can be read without the others (a connector's thousands of links); null when that cannot be told.
   */
  fieldsOf(entry: IndexedPbehavior): ReadonlySet<string> | null {
    let fields = this.#fields.get(entry.record);
    if (fields === undefined) {
      try {
        fields = filterFields(JSON.parse(entry.record.filter) as unknown, new Set(['_id']));
      } catch {
        fields = null;
      }
      this.#fields.set(entry.record, fields);
    }
    return fields;
  }

  /** Records a pbehavior written through this feature. */
  put(record: PbehaviorRecord): void {
    if (this.#loading) this.#writtenDuringLoad = true;
    this.#unlink(record._id);
    this.#link(record, this.scheduleOf(record));
  }

  remove(id: string): void {
    if (this.#loading) this.#writtenDuringLoad = true;
    this.#unlink(id);
  }

  #compile(record: PbehaviorRecord): Schedule | null {
    try {
      return new Schedule(record);
    } catch (err) {
      this.logger.warn({ err, pbehavior: record._id }, 'pbehavior timing cannot be evaluated; it is treated as never active');
      return null;
    }
  }

  #link(record: PbehaviorRecord, schedule: Schedule | null, pinned: readonly string[] | null = pinnedIds(record.filter)): void {
    const entry: IndexedPbehavior = { record, schedule, pinned };
    this.#entries.set(record._id, entry);
    for (const eid of record.eids) addTo(this.#byEntity, eid, entry);
    if (pinned) for (const id of pinned) addTo(this.#byPinnedId, id, entry);
    else this.#unpinned.add(entry);
  }

  #unlink(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    for (const eid of entry.record.eids) removeFrom(this.#byEntity, eid, entry);
    if (entry.pinned) for (const pinned of entry.pinned) removeFrom(this.#byPinnedId, pinned, entry);
    else this.#unpinned.delete(entry);
  }

  async #load(): Promise<void> {
    this.#writtenDuringLoad = false;
    const storeChanges = this.#storeChanges;
    const startedAt = this.clock.nowMs();
    const records = await this.repository.find();
    const previous = this.#entries;
    this.#entries = new Map();
    this.#byEntity = new Map();
    this.#byPinnedId = new Map();
    this.#unpinned = new Set();
    for (const record of records) {
      // Keep compiled schedules (and what they remember) of pbehaviors whose timing did not change.
      const before = previous.get(record._id);
      this.#link(record, before && timingKey(before.record) === timingKey(record) ? before.schedule : this.#compile(record));
    }
    this.#loadedAtMs = this.#writtenDuringLoad ? null : startedAt;
    this.#loadedChanges = storeChanges;
  }
}

const emptySet: ReadonlySet<IndexedPbehavior> = new Set();
