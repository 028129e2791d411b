import { injectable } from 'tsyringe';
import { DocumentRepository, injectRef, kernelRefs, type Doc, type Store } from '@vigie/kernel';

/** An alarm-filter action as stored in `default_alarmfilter`, in the shape its engine reads (REFERENCE §5.6). */
export interface AlarmFilterRecord extends Doc {
  /** uuid4 unless the client chose it. */
  _id: string;
  /** JSON text of a MongoDB query on `periodical_alarm` documents. */
  entity_filter: string;
  /** JSON text of a MongoDB query on `periodical_alarm` documents, `{}` for none. */
  condition: string;
  tasks: string[];
  output_format?: string;
  /** Seconds. */
  limit: number;
  postpone_if_active_pbehavior: boolean;
  repeat: number;
}

/** The keys a PUT may change. */
export type AlarmFilterChanges = Partial<Omit<AlarmFilterRecord, '_id'>>;

/** The alarm-filter actions in `default_alarmfilter`, by id. */
@injectable()
export class AlarmFilterRepository extends DocumentRepository<AlarmFilterRecord> {
  constructor(@injectRef(kernelRefs.store) store: Store) {
    super(store, 'default_alarmfilter', { order: { _id: 1 } });
  }

  /** Sets the given keys and returns the result, or null when `id` does not exist. */
  async update(id: string, changes: AlarmFilterChanges): Promise<AlarmFilterRecord | null> {
    if (Object.keys(changes).length === 0) return this.get(id);
    const updated = await this.documents.findOneAndUpdate({ _id: id }, { $set: changes }, { returnDocument: 'after' });
    this.wrote();
    return updated;
  }
}
