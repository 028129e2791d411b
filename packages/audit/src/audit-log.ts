import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type AuditEntry, type AuditOutcome, type AuditRefusal, type AuditTrail, type Clock, type Filter } from '@vigie/kernel';
import { escapeRegExp } from '@vigie/feature-kit';
import { AuditRepository, type AuditRecord } from './audit-repository.js';
import type { AuditQuery } from './schemas.js';

/**
 * The kernel's audit trail: the record of a change is inserted (and durable: the store resolves an insert once it
 * is) before the handler runs, and completed after with the answer's status and the documents written, before and
 * after. A crash in between leaves a `pending` record without `changes` and maybe a change, never a change without
 * a record.
 */
@injectable()
export class AuditLog implements AuditTrail {
  constructor(
    @inject(AuditRepository) private readonly records: AuditRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  async begin(entry: AuditEntry): Promise<string> {
    const id = randomUUID();
    // The kernel's entry carries wall-clock time; the feature's clock stamps it (tests inject one).
    await this.records.insert({ ...entry, _id: id, at: this.clock.nowMs(), outcome: 'pending', status: null, ended: null, changes: [], changesOmitted: 0 });
    return id;
  }

  async end(recordId: string, outcome: AuditOutcome): Promise<void> {
    await this.records.end(recordId, {
      outcome: outcome.status < 400 ? 'done' : 'failed',
      status: outcome.status,
      ended: this.clock.nowMs(),
      changes: outcome.changes,
      changesOmitted: outcome.changesOmitted,
    });
  }

  async refused(refusal: AuditRefusal): Promise<void> {
    const { status, reason, ...entry } = refusal;
    const now = this.clock.nowMs();
    await this.records.insert({ ...entry, _id: randomUUID(), at: now, outcome: 'refused', status, reason, ended: now, changes: [], changesOmitted: 0 });
  }

  /** One page of records matching the query, newest first. */
  async find(query: AuditQuery): Promise<{ data: AuditRecord[]; meta: { page: number; per_page: number; page_count: number; total_count: number } }> {
    const filter: Filter = {};
    if (query.user) filter['user.name'] = query.user;
    if (query.via) filter['user.via'] = query.via;
    if (query.method) filter.method = query.method.toUpperCase();
    if (query.route) filter.route = { $regex: `^${escapeRegExp(query.route)}` };
    if (query.right) filter.right = query.right;
    if (query.outcome) filter.outcome = query.outcome;
    if (query.client) filter.clientAddress = query.client;
    if (query.resource) filter.path = { $regex: escapeRegExp(query.resource) };
    if (query.from !== undefined || query.to !== undefined) {
      filter.at = { ...(query.from !== undefined ? { $gte: query.from * 1000 } : {}), ...(query.to !== undefined ? { $lt: query.to * 1000 } : {}) };
    }
    const { total, records } = await this.records.search(filter, (query.page - 1) * query.limit, query.limit);
    return { data: records, meta: { page: query.page, per_page: query.limit, page_count: Math.ceil(total / query.limit), total_count: total } };
  }
}
