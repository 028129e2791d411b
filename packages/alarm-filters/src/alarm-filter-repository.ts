import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Store } from '@vigie/kernel';

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

@injectable()
export class AlarmFilterRepository {
  readonly #filters: Collection<AlarmFilterRecord>;

  constructor(@injectRef(kernelRefs.store) store: Store) {
    this.#filters = store.collection<AlarmFilterRecord>('default_alarmfilter');
  }

  list(): Promise<AlarmFilterRecord[]> {
    return this.#filters.find({}, { sort: { _id: 1 } });
  }

  get(id: string): Promise<AlarmFilterRecord | null> {
    return this.#filters.findOne({ _id: id });
  }

  /** Throws a `DUPLICATE_KEY` error when the id exists. */
  insert(record: AlarmFilterRecord): Promise<void> {
    return this.#filters.insertOne(record);
  }

  /** Sets the given keys and returns the result, or null when `id` does not exist. */
  update(id: string, changes: AlarmFilterChanges): Promise<AlarmFilterRecord | null> {
    if (Object.keys(changes).length === 0) return this.get(id);
    return this.#filters.findOneAndUpdate({ _id: id }, { $set: changes }, { returnDocument: 'after' });
  }

  async delete(id: string): Promise<number> {
    return (await this.#filters.deleteOne({ _id: id })).deletedCount;
  }
}
