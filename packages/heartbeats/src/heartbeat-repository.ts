import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Doc, type FeatureStore } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';
import type { Heartbeat } from './schemas.js';

/**
 * A heartbeat as stored in `heartbeat`, in the shape the heartbeat engine reads (REFERENCE §5.5): the API's fields
 * (`heartbeatSchema`; `_id` is `heartbeatId(pattern)`) and the output of the alarm it raises, absent when not given.
 */
export interface HeartbeatRecord extends Doc, Heartbeat {
  output?: string;
}

export const heartbeatCollection = collectionRef<HeartbeatRecord>('heartbeat');

/** The heartbeats in `heartbeat`, by id (which their pattern decides). */
@injectable()
export class HeartbeatRepository extends DocumentRepository<HeartbeatRecord> {
  constructor(@injectRef(kernelRefs.store) private readonly store: FeatureStore) {
    super(store, heartbeatCollection, { order: { _id: 1 } });
  }

  /**
   * Replaces heartbeat `id` with `record` and returns it; null when `id` does not exist. A changed pattern changes
   * the id: the old document is then deleted and the new one inserted in one batch, which fails whole with
   * `DUPLICATE_KEY` if another heartbeat already has that pattern.
   */
  async replaceAt(id: string, record: HeartbeatRecord): Promise<HeartbeatRecord | null> {
    if (record._id === id) return this.replace(record);
    if (!(await this.get(id))) return null;
    await this.store.batch([
      { op: 'delete', collection: heartbeatCollection.name, filter: { _id: id } },
      { op: 'insert', collection: heartbeatCollection.name, doc: record },
    ]);
    this.wrote();
    return record;
  }
}
