import { randomUUID } from 'node:crypto';
import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';

export const visitCollection = collectionRef<VisitRecord>('hello_visits');
export const summaryCollection = collectionRef<SummaryRecord>('hello_summary');

export interface VisitRecord extends Doc {
  _id: string;
  name: string;
  /** Epoch seconds. */
  at: number;
}

export interface SummaryRecord extends Doc {
  _id: 'summary';
  visits: number;
  changed_entities: number;
  at: number;
}

/** Store access: visits in `hello_visits`, the job's last summary in `hello_summary`. */
@injectable()
export class VisitRepository {
  readonly #visits: Collection<VisitRecord>;
  readonly #summary: Collection<SummaryRecord>;

  constructor(@injectRef(kernelRefs.store) private readonly store: FeatureStore) {
    this.#visits = store.collection(visitCollection);
    this.#summary = store.collection(summaryCollection);
  }

  async add(name: string, at: number): Promise<VisitRecord> {
    const record = { _id: randomUUID(), name, at };
    await this.#visits.insertOne(record);
    return record;
  }

  count(): Promise<number> {
    return this.#visits.count();
  }

  /** Drops the oldest visits beyond `keep`. */
  async trim(keep: number): Promise<void> {
    const old = await this.#visits.find({}, { sort: { at: -1, _id: 1 }, skip: keep, projection: { _id: 1 } });
    if (old.length > 0) await this.#visits.deleteMany({ _id: { $in: old.map((v) => v._id) } });
  }

  lastSummary(): Promise<SummaryRecord | null> {
    return this.#summary.findOne({ _id: 'summary' });
  }

  async saveSummary(summary: SummaryRecord): Promise<void> {
    await this.#summary.replaceOne({ _id: 'summary' }, summary, { upsert: true });
  }

  ping(): Promise<void> {
    return this.store.ping();
  }
}
