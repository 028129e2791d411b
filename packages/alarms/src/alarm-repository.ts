import { inject, injectable } from 'tsyringe';
import { KernelTokens, type BatchOperation, type Collection, type Doc, type Filter, type FindOptions, type Store } from '@vigie/kernel';
import { alarmCollection, type Alarm } from './alarm.js';

/** Per entity, the ids of the last events whose alarm change was stored (so a redelivered event is not applied twice). */
interface AppliedEvents extends Doc {
  ids: string[];
}

const appliedEventsCollection = 'alarm_applied_events';
/** Events of one entity that may be redelivered after a crash are the few in flight; this bounds the record. */
const appliedEventsKept = 32;

/** `periodical_alarm`, owned by the alarms feature. */
@injectable()
export class AlarmRepository {
  readonly #store: Store;
  readonly #alarms: Collection<Alarm>;
  readonly #applied: Collection<AppliedEvents>;

  constructor(@inject(KernelTokens.Store) store: Store) {
    this.#store = store;
    this.#alarms = store.collection<Alarm>(alarmCollection);
    this.#applied = store.collection<AppliedEvents>(appliedEventsCollection);
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

  async wasApplied(entityId: string, eventId: string): Promise<boolean> {
    const record = await this.#applied.findOne({ _id: entityId });
    return record?.ids.includes(eventId) ?? false;
  }

  /** Stores a new or changed alarm and, in the same atomic batch, the id of the event that caused it. */
  async save(alarm: Alarm, created: boolean, applied?: { entityId: string; eventId: string }): Promise<void> {
    const operations: BatchOperation[] = [
      created ? { op: 'insert', collection: alarmCollection, doc: alarm } : { op: 'replace', collection: alarmCollection, filter: { _id: alarm._id }, doc: alarm },
    ];
    if (applied) {
      operations.push({
        op: 'update',
        collection: appliedEventsCollection,
        filter: { _id: applied.entityId },
        update: { $push: { ids: { $each: [applied.eventId], $slice: -appliedEventsKept } } },
        upsert: true,
      });
    }
    await this.#store.batch(operations);
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
