import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Doc, type FeatureStore } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';
import type { AlarmFilter } from './schemas.js';

/**
 * An alarm-filter action as stored in `default_alarmfilter`, in the shape its engine reads (REFERENCE §5.6): the
 * action as the API shows it, except `condition`, kept as JSON text like `entity_filter` (`{}` for none).
 */
export interface AlarmFilterRecord extends Doc, Omit<AlarmFilter, 'condition'> {
  condition: string;
}

/** The keys a PUT may change. */
export const alarmFilterCollection = collectionRef<AlarmFilterRecord>('default_alarmfilter');

export type AlarmFilterChanges = Partial<Omit<AlarmFilterRecord, '_id'>>;

/** The alarm-filter actions in `default_alarmfilter`, by id. */
@injectable()
export class AlarmFilterRepository extends DocumentRepository<AlarmFilterRecord> {
  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    super(store, alarmFilterCollection, { order: { _id: 1 } });
  }

  /** Sets the given keys and returns the result, or null when `id` does not exist. */
  async update(id: string, changes: AlarmFilterChanges): Promise<AlarmFilterRecord | null> {
    if (Object.keys(changes).length === 0) return this.get(id);
    const updated = await this.documents.findOneAndUpdate({ _id: id }, { $set: changes }, { returnDocument: 'after' });
    this.wrote();
    return updated;
  }
}
