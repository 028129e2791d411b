import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { ErrorCodes, HttpError, injectRef, kernelRefs, hasCode, type Clock } from '@vigie/kernel';
import { IdleRuleRepository, type IdleRuleRecord } from './idle-rule-repository.js';
import type { IdleRule, IdleRuleBody } from './schemas.js';

/** The output, built field by field from what is stored (never the document itself). */
export function publicIdleRule(record: IdleRuleRecord): IdleRule {
  return {
    _id: record._id,
    name: record.name,
    description: record.description,
    type: record.type,
    duration: record.duration,
    operation: { type: record.operation.type, parameters: record.operation.parameters },
    alarm_patterns: record.alarm_patterns,
    entity_patterns: record.entity_patterns,
    ...(record.disable_during_periods === undefined ? {} : { disable_during_periods: record.disable_during_periods }),
    author: record.author,
    creation_date: record.creation_date,
    last_modified_date: record.last_modified_date,
  };
}

export function notFound(id: string): HttpError {
  return new HttpError(404, `no idle rule with id ${id}`);
}

/** Creating, replacing, reading and deleting idle rules; `author` and the dates are the service's to set. */
@injectable()
export class IdleRuleService {
  constructor(
    @inject(IdleRuleRepository) private readonly rules: IdleRuleRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  /** The rule a body describes, as it would be stored now (the preview's rule). */
  draft(body: IdleRuleBody, author: string): IdleRuleRecord {
    const now = this.clock.nowSec();
    return this.record(body._id ?? randomUUID(), body, author, now, now);
  }

  async create(body: IdleRuleBody, author: string): Promise<IdleRule> {
    const now = this.clock.nowSec();
    const record = this.record(body._id ?? randomUUID(), body, author, now, now);
    try {
      await this.rules.insert(record);
    } catch (err) {
      if (hasCode(err, ErrorCodes.DuplicateKey)) throw new HttpError(400, `failed to create idle rule: duplicate id ${record._id}`, { cause: err });
      throw err;
    }
    return publicIdleRule(record);
  }

  /** Replaces the rule whose id is `id`; the body must carry the same `_id` (the original rebuilt the rule from it). */
  async update(id: string, body: IdleRuleBody, author: string): Promise<IdleRule> {
    const existing = await this.rules.get(id);
    if (!existing) throw notFound(id);
    if (body._id !== id) throw new HttpError(400, 'failed to update idle rule: the _id field should not be modified');
    const record = this.record(id, body, author, existing.creation_date, this.clock.nowSec());
    if (!(await this.rules.replace(record))) throw notFound(id);
    return publicIdleRule(record);
  }

  async get(id: string): Promise<IdleRule | null> {
    const record = await this.rules.get(id);
    return record && publicIdleRule(record);
  }

  async list(): Promise<IdleRule[]> {
    return (await this.rules.list()).map(publicIdleRule);
  }

  /** Throws the 404 of the spec when nothing was deleted. */
  async delete(id: string): Promise<{ deletedCount: number; acknowledged: boolean }> {
    if (!(await this.rules.delete(id))) throw notFound(id);
    return { deletedCount: 1, acknowledged: true };
  }

  private record(id: string, body: IdleRuleBody, author: string, created: number, modified: number): IdleRuleRecord {
    return {
      _id: id,
      name: body.name,
      description: body.description ?? '',
      type: body.type,
      duration: body.duration,
      operation: { type: body.operation.type, parameters: body.operation.parameters ?? {} },
      alarm_patterns: body.alarm_patterns ?? null,
      entity_patterns: body.entity_patterns ?? null,
      ...(body.disable_during_periods === undefined ? {} : { disable_during_periods: body.disable_during_periods }),
      author,
      creation_date: created,
      last_modified_date: modified,
    };
  }
}
