import { inject, injectable } from 'tsyringe';
import { KernelTokens, jsonEqual, type BatchOperation, type Collection, type Filter, type FindOptions, type Store } from '@vigie/kernel';
import { alarmCollection, type Alarm } from './alarm.js';

/** One alarm write waiting for the next group commit. */
interface PendingWrite {
  alarm: Alarm;
  operation: BatchOperation;
  done(stored: boolean): void;
  failed(err: unknown): void;
}

/** `periodical_alarm`, owned by the alarms feature. */
@injectable()
export class AlarmRepository {
  readonly #store: Store;
  readonly #alarms: Collection<Alarm>;
  #pending: PendingWrite[] = [];
  #flushScheduled = false;

  constructor(@inject(KernelTokens.Store) store: Store) {
    this.#store = store;
    this.#alarms = store.collection<Alarm>(alarmCollection);
  }

  /** The entity's open (not resolved) alarm; there is at most one. */
  open(entityId: string): Promise<Alarm | null> {
    return this.#alarms.findOne({ d: entityId, 'v.resolved': null });
  }

  get(id: string): Promise<Alarm | null> {
    return this.#alarms.findOne({ _id: id });
  }

  find(filter: Filter, options: FindOptions = {}): Promise<Alarm[]> {
    return this.#alarms.find(filter, options);
  }

  count(filter: Filter): Promise<number> {
    return this.#alarms.count(filter);
  }

  /**
   * Stores a new alarm, or a changed one if it is still at `expectedRevision` (compare-and-set on one document, so
   * the change and the event ids it carries are stored atomically). False when another writer changed it first.
   * Writes of different entities made in the same turn of the event loop share one store batch (group commit: one
   * transaction instead of one each, which is what bounds the embedded store's write rate).
   */
  save(alarm: Alarm, expectedRevision: number | null): Promise<boolean> {
    // Alarms written before revisions existed have none: `null` matches the missing field.
    const operation: BatchOperation =
      expectedRevision === null
        ? { op: 'insert', collection: alarmCollection, doc: alarm }
        : { op: 'replace', collection: alarmCollection, filter: { _id: alarm._id, revision: expectedRevision === 0 ? null : expectedRevision }, doc: alarm };
    return new Promise<boolean>((done, failed) => {
      this.#pending.push({ alarm, operation, done, failed });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const writes = this.#pending;
    this.#pending = [];
    this.#flushScheduled = false;
    let result;
    try {
      result = await this.#store.batch(writes.map((write) => write.operation));
    } catch {
      // One bad write (a store refusal) must not fail the others: write each alone to find out which.
      await Promise.all(writes.map((write) => this.#writeAlone(write)));
      return;
    }
    const replaces = writes.filter((write) => write.operation.op === 'replace').length;
    if (result.matched === replaces) {
      for (const write of writes) write.done(true);
      return;
    }
    // Some compare-and-set lost a race; the stored document says whose write landed.
    for (const write of writes) {
      if (write.operation.op === 'insert') write.done(true);
      else this.#alarms.findOne({ _id: write.alarm._id }).then((stored) => write.done(stored !== null && jsonEqual(stored, write.alarm)), write.failed);
    }
  }

  async #writeAlone(write: PendingWrite): Promise<void> {
    try {
      const result = await this.#store.batch([write.operation]);
      write.done(write.operation.op === 'insert' || result.matched === 1);
    } catch (err) {
      write.failed(err);
    }
  }

  /** Deletes alarms resolved at or before `cutoff` (epoch seconds); returns how many. */
  async deleteResolvedUntil(cutoff: number): Promise<number> {
    return (await this.#alarms.deleteMany({ 'v.resolved': { $lte: cutoff } })).deletedCount;
  }

  /** Indexes of the reads: the open alarm of an entity, the beats' candidates, the list's time window. */
  async ensureIndexes(): Promise<void> {
    await this.#alarms.createIndex({ keys: { d: 1 } });
    await this.#alarms.createIndex({ keys: { 'v.resolved': 1 } });
    await this.#alarms.createIndex({ keys: { t: 1 } });
    await this.#alarms.createIndex({ keys: { 'v.component': 1 } });
  }
}
