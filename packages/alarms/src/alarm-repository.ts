import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Collection, type Filter, type FindOptions, type Store } from '@vigie/kernel';
import { alarmCollection, type Alarm } from './alarm.js';

/** `periodical_alarm`, owned by the alarms feature. */
@injectable()
export class AlarmRepository {
  readonly #alarms: Collection<Alarm>;

  constructor(@inject(KernelTokens.Store) store: Store) {
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
   */
  async save(alarm: Alarm, expectedRevision: number | null): Promise<boolean> {
    if (expectedRevision === null) {
      await this.#alarms.insertOne(alarm);
      return true;
    }
    // Alarms written before revisions existed have none: `null` matches the missing field.
    const filter = { _id: alarm._id, revision: expectedRevision === 0 ? null : expectedRevision };
    return (await this.#alarms.replaceOne(filter, alarm)).matchedCount === 1;
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
