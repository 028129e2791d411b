import { inject, injectable } from 'tsyringe';
import { Query } from 'mingo';
import { KernelTokens, type Clock, type Logger } from '@vigie/kernel';
import type { PbehaviorsConfig } from './config.js';
import type { PbehaviorRecord } from './pbehavior.js';
import { PbehaviorRepository } from './pbehavior-repository.js';
import { Schedule } from './schedule.js';

/** One pbehavior in memory, with its compiled schedule and filter. */
export interface IndexedPbehavior {
  readonly record: PbehaviorRecord;
  /** Null when the stored timing cannot be evaluated (such a pbehavior is never active). */
  readonly schedule: Schedule | null;
}

function timingKey(record: PbehaviorRecord): string {
  return JSON.stringify([record.tstart, record.tstop, record.rrule, record.timezone, record.exdate]);
}

/**
 * Every pbehavior in memory, by id and by entity id, so that "which pbehaviors are active on these entities now"
 * costs map lookups and remembered schedule answers instead of a scan of `default_pbehavior` and of every recurrence.
 * Writes made through this feature update it at once; it reloads from the store when older than
 * `[pbehaviors] refresh_seconds`, which is how writes made by other Vigie nodes reach it.
 */
@injectable()
export class PbehaviorIndex {
  #entries = new Map<string, IndexedPbehavior>();
  #byEntity = new Map<string, Set<IndexedPbehavior>>();
  readonly #queries = new WeakMap<PbehaviorRecord, Query | null>();
  #loadedAtMs: number | null = null;
  #loading: Promise<void> | null = null;
  #reloadScheduled = false;
  /** A write landed while a reload was reading the store: the reload's picture may miss it. */
  #writtenDuringLoad = false;

  constructor(
    @inject(PbehaviorRepository) private readonly repository: PbehaviorRepository,
    @inject(KernelTokens.Clock) private readonly clock: Clock,
    @inject(KernelTokens.Config) private readonly config: PbehaviorsConfig,
    @inject(KernelTokens.Logger) private readonly logger: Logger,
  ) {}

  /**
   * The index, loaded. The first call waits for the load; later ones answer at once and, when the index is older
   * than `refresh_seconds`, reload it after the current work (only other nodes' writes can be missing from it).
   */
  async ready(): Promise<this> {
    if (this.#loadedAtMs === null) {
      await this.#reload();
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

  /** The pbehaviors whose `eids` hold this entity. */
  on(entityId: string): ReadonlySet<IndexedPbehavior> {
    return this.#byEntity.get(entityId) ?? emptySet;
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

  #link(record: PbehaviorRecord, schedule: Schedule | null): void {
    const entry: IndexedPbehavior = { record, schedule };
    this.#entries.set(record._id, entry);
    for (const eid of record.eids) {
      let set = this.#byEntity.get(eid);
      if (!set) {
        set = new Set();
        this.#byEntity.set(eid, set);
      }
      set.add(entry);
    }
  }

  #unlink(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    for (const eid of entry.record.eids) {
      const set = this.#byEntity.get(eid);
      set?.delete(entry);
      if (set?.size === 0) this.#byEntity.delete(eid);
    }
  }

  async #load(): Promise<void> {
    this.#writtenDuringLoad = false;
    const startedAt = this.clock.nowMs();
    const records = await this.repository.find();
    const previous = this.#entries;
    this.#entries = new Map();
    this.#byEntity = new Map();
    for (const record of records) {
      // Keep compiled schedules (and what they remember) of pbehaviors whose timing did not change.
      const before = previous.get(record._id);
      this.#link(record, before && timingKey(before.record) === timingKey(record) ? before.schedule : this.#compile(record));
    }
    this.#loadedAtMs = this.#writtenDuringLoad ? null : startedAt;
  }
}

const emptySet: ReadonlySet<IndexedPbehavior> = new Set();
