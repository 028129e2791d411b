import { createHash, randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type AuditEntry, type AuditOutcome, type AuditRefusal, type AuditTrail, type Clock, type Filter } from '@vigie/kernel';
import { escapeRegExp } from '@vigie/feature-kit';
import { AuditRepository, type AuditRecord } from './audit-repository.js';
import type { AuditQuery } from './schemas.js';

/** Ids of the records of a minute of a tallied route: no random id starts so. */
const tallyPrefix = 'tally-';

/**
 * The record a tallied request is counted in: one per minute (UTC) for each user, API key, client address, method
 * and route. Several nodes counting the same minute share it.
 */
function tallyId(entry: AuditEntry, now: number, kind: 'answered' | 'refused'): string {
  const who = JSON.stringify([kind, entry.user.id, entry.user.name, entry.user.via, entry.user.apiKey ?? '', entry.clientAddress, entry.method, entry.route]);
  const minute = new Date(now - (now % 60_000)).toISOString().slice(0, 16);
  return `${tallyPrefix}${minute}-${createHash('sha256').update(who).digest('base64url').slice(0, 22)}`;
}

/**
 * The kernel's audit trail: the record of a change is inserted (and durable: the store resolves an insert once it
 * is) before the handler runs, and completed after with the answer's status and the documents written, before and
 * after. A crash in between leaves a `pending` record without `changes` and maybe a change, never a change without
 * a record. A tallied request (`AuditEntry.tally`) is counted in its minute's record the same way: before its
 * handler runs, and once answered.
 */
@injectable()
export class AuditLog implements AuditTrail {
  constructor(
    @inject(AuditRepository) private readonly records: AuditRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  async begin(entry: AuditEntry): Promise<string> {
    // The kernel's entry carries wall-clock time; the feature's clock stamps it (tests inject one).
    const now = this.clock.nowMs();
    const { tally, ...recorded } = entry;
    if (tally) {
      const id = tallyId(entry, now, 'answered');
      await this.records.tallyStart(id, { ...recorded, at: now, outcome: 'done', status: null, ended: null, changes: [], changesOmitted: 0 });
      return id;
    }
    const id = randomUUID();
    await this.records.insert({ ...recorded, _id: id, at: now, outcome: 'pending', status: null, ended: null, changes: [], changesOmitted: 0 });
    return id;
  }

  async end(recordId: string, outcome: AuditOutcome): Promise<void> {
    if (recordId.startsWith(tallyPrefix)) return this.records.tallyEnd(recordId, outcome.status, this.clock.nowMs(), outcome.changesOmitted);
    await this.records.end(recordId, {
      outcome: outcome.status < 400 ? 'done' : 'failed',
      status: outcome.status,
      ended: this.clock.nowMs(),
      changes: outcome.changes,
      changesOmitted: outcome.changesOmitted,
    });
  }

  async refused(refusal: AuditRefusal): Promise<void> {
    const { status, reason, tally, ...entry } = refusal;
    const now = this.clock.nowMs();
    // A sender with wrong credentials keeps sending: its refusals are counted by the minute too.
    if (tally) return this.records.tallyRefusal(tallyId(refusal, now, 'refused'), { ...entry, at: now, outcome: 'refused', changes: [], changesOmitted: 0 }, status, reason, now);
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
    // A minute's tally is pending while one of its requests is.
    if (query.outcome === 'pending') filter.$or = [{ outcome: 'pending' }, { pending: { $gt: 0 } }];
    else if (query.outcome) filter.outcome = query.outcome;
    if (query.client) filter.clientAddress = query.client;
    if (query.resource) filter.path = { $regex: escapeRegExp(query.resource) };
    if (query.from !== undefined || query.to !== undefined) {
      filter.at = { ...(query.from !== undefined ? { $gte: query.from * 1000 } : {}), ...(query.to !== undefined ? { $lt: query.to * 1000 } : {}) };
    }
    const { total, records } = await this.records.search(filter, (query.page - 1) * query.limit, query.limit);
    return { data: records, meta: { page: query.page, per_page: query.limit, page_count: Math.ceil(total / query.limit), total_count: total } };
  }
}
