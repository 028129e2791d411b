import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type AuditChange, type AuditEntry, type Doc, type FeatureStore, type Filter } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';

/**
 * One change asked through the API. `outcome` is `pending` from the moment the record is durable until the
 * handler has answered (`done` below 400, else `failed`); a record still `pending` after its server stopped means
 * the process died while handling it: the change may or may not have been made, and `changes` is empty. `refused`:
 * the kernel turned the write down before any handler (401, 403, 429); nothing changed.
 */
export interface AuditRecord extends Doc, Omit<AuditEntry, 'at'> {
  _id: string;
  /** Epoch milliseconds at which the request was recorded. */
  at: number;
  outcome: 'pending' | 'done' | 'failed' | 'refused';
  status: number | null;
  /** Epoch milliseconds at which the handler answered. */
  ended: number | null;
  /** The documents the request wrote, before and after, secrets masked; filled when the handler has answered. */
  changes: AuditChange[];
  /** Documents written beyond the ones copied into `changes` (a large import). */
  changesOmitted: number;
  /** Why a refused write was refused (the error's description). */
  reason?: string;
  /**
   * On the record of a minute of a tallied route (`audit: 'tally'`, the event intake): its requests, those not yet
   * answered (a crash leaves them counted) and those that failed. `at` is the first request's time, `requestId` its
   * id, `ended` the last answer's time and `status` its status; `outcome` is `failed` once one of them failed.
   */
  requests?: number;
  pending?: number;
  failed?: number;
}

/** What a tallied request adds to its minute's record before its handler runs, and once it has answered. */
export type TallyStart = Omit<AuditRecord, '_id' | 'requests' | 'pending' | 'failed' | 'reason'>;

export const auditCollection = collectionRef<AuditRecord>('audit_log');

/** The records of `audit_log`, newest first. */
@injectable()
export class AuditRepository extends DocumentRepository<AuditRecord> {
  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    super(store, auditCollection, { order: { at: -1, _id: 1 } });
  }

  async end(id: string, changes: Pick<AuditRecord, 'outcome' | 'status' | 'ended' | 'changes' | 'changesOmitted'>): Promise<void> {
    await this.documents.updateOne({ _id: id }, { $set: changes });
    this.wrote();
  }

  /** Counts a request in its minute's record (made by the first one): durable before its handler runs. */
  async tallyStart(id: string, record: TallyStart): Promise<void> {
    await this.documents.updateOne({ _id: id }, { $setOnInsert: { ...record, failed: 0 }, $inc: { requests: 1, pending: 1 } }, { upsert: true });
    this.wrote();
  }

  /** Counts the answer of a request counted by `tallyStart`, and the documents it wrote. */
  async tallyEnd(id: string, status: number, ended: number, documents: number): Promise<void> {
    const failed = status >= 400;
    await this.documents.updateOne(
      { _id: id },
      { $inc: { pending: -1, failed: failed ? 1 : 0, changesOmitted: documents }, $set: { status, ended, ...(failed ? { outcome: 'failed' } : {}) } },
    );
    this.wrote();
  }

  /** Counts a refused request of a tallied route in its minute's record of refusals (made by the first one). */
  async tallyRefusal(id: string, record: Omit<TallyStart, 'status' | 'ended'>, status: number, reason: string, at: number): Promise<void> {
    await this.documents.updateOne(
      { _id: id },
      { $setOnInsert: { ...record, pending: 0 }, $inc: { requests: 1, failed: 1 }, $set: { status, reason, ended: at } },
      { upsert: true },
    );
    this.wrote();
  }

  async search(filter: Filter, skip: number, limit: number): Promise<{ total: number; records: AuditRecord[] }> {
    const [total, records] = await Promise.all([this.documents.count(filter), this.documents.find(filter, { sort: { at: -1, _id: 1 }, skip, limit })]);
    // Records written before changes were recorded have neither field.
    return { total, records: records.map((record) => ({ ...record, changes: record.changes ?? [], changesOmitted: record.changesOmitted ?? 0 })) };
  }

  /** Deletes the records made before `cutoff` (epoch milliseconds); answers how many went. */
  async purgeBefore(cutoff: number): Promise<number> {
    const { deletedCount } = await this.documents.deleteMany({ at: { $lt: cutoff } });
    this.wrote();
    return deletedCount;
  }
}
