import { randomUUID } from 'node:crypto';
import { injectable } from 'tsyringe';
import {
  ErrorCodes,
  hasCode,
  injectRef,
  kernelRefs,
  type BatchOperation,
  type Collection,
  type Filter,
  type FindOptions,
  type FeatureStore,
} from '@vigie/kernel';
import { jsonEqual } from '@vigie/json';
import { alarmCollection, type Alarm } from './alarm.js';
import { alarmUpdate } from './alarm-update.js';

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
  readonly #store: FeatureStore;
  readonly #alarms: Collection<Alarm>;
  #pending: PendingWrite[] = [];
  #flushScheduled = false;
  /** What makes this repository's write tokens unique among every node's (`Alarm.write_token`). */
  readonly #writer = randomUUID();
  #writes = 0;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#store = store;
    this.#alarms = store.collection(alarmCollection);
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
   * Stores a new alarm (`previous` null), or a change of `previous` if the stored alarm is still at its revision
   * (compare-and-set on one document, so the change and the event ids it carries are stored atomically). False
   * when another writer changed it first, or stored a new alarm with the same id first (`newAlarmId`). A change is written as an update of the fields it changed (the store
   * applies it in place), or as a replacement when an update cannot say it (see `alarmUpdate`); both store `alarm`.
   * Writes of different entities made in the same turn of the event loop share one store batch (group commit: one
   * transaction instead of one each, which is what bounds the embedded store's write rate).
   */
  save(alarm: Alarm, previous: Alarm | null): Promise<boolean> {
    let operation: BatchOperation;
    if (previous === null) operation = { op: 'insert', collection: alarmCollection.name, doc: alarm };
    else {
      alarm.write_token = `${this.#writer}.${++this.#writes}`;
      // Alarms written before revisions existed have none: `null` matches the missing field.
      const filter = { _id: alarm._id, revision: previous.revision ?? null };
      const update = alarmUpdate(previous, alarm);
      operation = update
        ? { op: 'update', collection: alarmCollection.name, filter, update }
        : { op: 'replace', collection: alarmCollection.name, filter, doc: alarm };
    }
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
    const changes = writes.filter((write) => write.operation.op !== 'insert').length;
    if (result.matched === changes) {
      for (const write of writes) write.done(true);
      return;
    }
    // Some compare-and-set lost a race; the stored document says whose write landed (its write token: two nodes may
    // have written the very same change).
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
      if (write.operation.op === 'insert' && hasCode(err, ErrorCodes.DuplicateKey)) write.done(false);
      else write.failed(err);
    }
  }

  /** Deletes alarms resolved at or before `cutoff` (epoch seconds); returns how many. */
  async deleteResolvedUntil(cutoff: number): Promise<number> {
    return (await this.#alarms.deleteMany({ 'v.resolved': { $lte: cutoff } })).deletedCount;
  }
}
