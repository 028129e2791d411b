import { injectable } from 'tsyringe';
import { collectionRef, ErrorCodes, injectRef, kernelRefs, hasCode, type BatchOperation, type Collection, type Doc, type Filter, type FeatureStore } from '@vigie/kernel';
import type { ImportStats } from './apply-plan.js';
import type { BodyFormat } from './import-document.js';

export const importCollection = collectionRef<ImportRecord>('default_importgraph');

export const importStatuses = ['pending', 'ongoing', 'done', 'failed'] as const;
export type ImportStatus = (typeof importStatuses)[number];

/** Who processes an import: a host, a process on it, and one kernel instance in that process. */
export interface ImportWorker {
  host: string;
  pid: number;
  instance: string;
}

/** An import as recorded in `default_importgraph`. */
export interface ImportRecord extends Doc {
  /** The import id (a uuid), also the `import_id` answered at submission. */
  _id: string;
  /** Submission order: imports run by increasing `seq`. */
  seq: number;
  /** Python `time.asctime()` of the submission, server local time. */
  creation: string;
  status: ImportStatus;
  format: BodyFormat;
  /** While ongoing: the worker processing it, and until when its claim holds (epoch ms) unless renewed. */
  worker: ImportWorker | null;
  lease_until: number | null;
  exec_time?: string;
  stats?: ImportStats;
  info?: string;
  /**
   * Written with the graph changes, in their batch, while the status is still `ongoing`: the import is applied, and
   * turns `done` once that batch is durable. A worker that finds it (its predecessor died in between) records `done`
   * without applying the import again.
   */
  committed?: DoneOutcome;
}

export type DoneOutcome = { status: 'done'; exec_time: string; stats: ImportStats };
export type ImportOutcome = DoneOutcome | { status: 'failed'; exec_time: string; info: string };

const unfinished = { status: { $in: ['pending', 'ongoing'] } };

/** The spec's status record: `_id`, `creation`, `status`, then `exec_time` and `stats` or `info` once finished. */
export function publicStatus(record: ImportRecord): Record<string, unknown> {
  const view: Record<string, unknown> = { _id: record._id, creation: record.creation, status: record.status };
  if (record.status === 'done') Object.assign(view, { exec_time: record.exec_time, stats: { deleted: record.stats?.deleted ?? 0, updated: record.stats?.updated ?? 0 } });
  if (record.status === 'failed') Object.assign(view, { exec_time: record.exec_time, info: record.info });
  return view;
}

/** The import while `worker` holds it: only that worker writes its progress and outcome (another may have taken over an expired claim). */
function heldBy(id: string, worker: ImportWorker): Filter {
  return { _id: id, 'worker.instance': worker.instance };
}

/** Store access for the import status records. */
@injectable()
export class ImportRepository {
  readonly #store: FeatureStore;
  readonly #records: Collection<ImportRecord>;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#store = store;
    this.#records = store.collection(importCollection);
  }

  get(id: string): Promise<ImportRecord | null> {
    return this.#records.findOne({ _id: id });
  }

  /** Records a new import after the last one; two submissions racing for a `seq` retry (it is unique). */
  async insert(record: Pick<ImportRecord, '_id' | 'creation' | 'status' | 'format' | 'worker' | 'lease_until'>): Promise<ImportRecord> {
    for (let attempt = 1; ; attempt++) {
      const last = await this.#records.findOne({}, { sort: { seq: -1 }, projection: { seq: 1 } });
      const numbered = { ...record, seq: (last?.seq ?? 0) + 1 };
      try {
        await this.#records.insertOne(numbered);
        return numbered;
      } catch (err) {
        if (!hasCode(err, ErrorCodes.DuplicateKey) || attempt >= 20) throw err;
      }
    }
  }

  /** The oldest unfinished import: the one to process next, or the one being processed. */
  head(): Promise<ImportRecord | null> {
    return this.#records.findOne(unfinished, { sort: { seq: 1 } });
  }

  unfinished(): Promise<ImportRecord[]> {
    return this.#records.find(unfinished, { sort: { seq: 1 } });
  }

  /** Makes `worker` the processor of `seen`, unless the record changed since it was read. */
  claim(seen: ImportRecord, worker: ImportWorker, leaseUntil: number): Promise<ImportRecord | null> {
    return this.#records.findOneAndUpdate(
      { _id: seen._id, status: seen.status, lease_until: seen.lease_until },
      { $set: { status: 'ongoing', worker, lease_until: leaseUntil } },
    );
  }

  /** Extends the worker's claim; false when the import is no longer this worker's. */
  async renew(id: string, worker: ImportWorker, leaseUntil: number): Promise<boolean> {
    const result = await this.#records.updateOne({ ...heldBy(id, worker), status: 'ongoing' }, { $set: { lease_until: leaseUntil } });
    return result.matchedCount === 1;
  }

  /**
   * The write that records an import as applied (`committed`), for the batch that commits its graph changes: the
   * store may show a batch before it is durable, so the status turns `done` only afterwards (`finish`).
   */
  committing(id: string, worker: ImportWorker, outcome: DoneOutcome): BatchOperation {
    // Vouched for: the context graph's store commits it with the entities, though the collection is the import's.
    const [operation] = this.#store.vouch([{ op: 'update', collection: importCollection.name, filter: heldBy(id, worker), update: { $set: { committed: outcome } } }]);
    return operation as BatchOperation;
  }

  async finish(id: string, worker: ImportWorker, outcome: ImportOutcome): Promise<void> {
    await this.#records.updateOne(heldBy(id, worker), { $set: { ...outcome, worker: null, lease_until: null }, $unset: { committed: '' } });
  }
}
