import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { ErrorCodes, HttpError, injectRef, kernelRefs, hasCode, type Clock } from '@vigie/kernel';
import { DynamicInfosRepository, type DynamicInfosRecord } from './dynamic-infos-repository.js';
import { listRequest, type ListQuery } from './list-query.js';
import type { InferType } from 'yup';
import type { DynamicInfosRule, dynamicInfosInputSchema } from './schemas.js';

/** A rule as the API shows it: the stored fields, copied explicitly (never the document itself). */
export type DynamicInfosOutput = DynamicInfosRule;

/** Who changed a rule and when: set by the service, never taken from the body. */
interface Provenance {
  author: string;
  creation_date: number;
  last_modified_date: number;
}

export function ruleOutput(rule: DynamicInfosRecord): DynamicInfosOutput {
  return {
    _id: rule._id,
    name: rule.name,
    description: rule.description,
    infos: rule.infos.map(({ name, value, type }) => ({ name, value, ...(type === undefined ? {} : { type }) })),
    alarm_patterns: rule.alarm_patterns,
    entity_patterns: rule.entity_patterns,
    ...(rule.disable_during_periods === undefined ? {} : { disable_during_periods: rule.disable_during_periods }),
    author: rule.author,
    creation_date: rule.creation_date,
    last_modified_date: rule.last_modified_date,
  };
}

export function ruleNotFound(id: string): HttpError {
  return new HttpError(404, `no dynamic infos rule with id ${id}`);
}

/** A POST or PUT body, validated by the routes' `requestSchema`. */
export type RuleInput = InferType<typeof dynamicInfosInputSchema>;

function ruleRecord(id: string, input: RuleInput, provenance: Provenance): DynamicInfosRecord {
  return {
    _id: id,
    name: input.name,
    description: input.description ?? '',
    infos: input.infos.map((info) => ({ name: info.name, value: info.value, ...(info.type === undefined ? {} : { type: info.type }) })),
    alarm_patterns: input.alarm_patterns ?? null,
    entity_patterns: input.entity_patterns ?? null,
    ...(input.disable_during_periods === undefined ? {} : { disable_during_periods: input.disable_during_periods }),
    ...provenance,
  };
}

@injectable()
export class DynamicInfosService {
  constructor(
    @inject(DynamicInfosRepository) private readonly rules: DynamicInfosRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  /** The rule a body describes, as it would be stored now (the preview's rule). */
  draft(input: RuleInput, author: string): DynamicInfosRecord {
    const now = this.clock.nowSec();
    return ruleRecord(input._id ?? randomUUID(), input, { author, creation_date: now, last_modified_date: now });
  }

  async create(input: RuleInput, author: string): Promise<DynamicInfosOutput> {
    const now = this.clock.nowSec();
    const rule = ruleRecord(input._id ?? randomUUID(), input, { author, creation_date: now, last_modified_date: now });
    try {
      await this.rules.insert(rule);
    } catch (err) {
      if (hasCode(err, ErrorCodes.DuplicateKey)) throw new HttpError(400, `failed to create dynamic infos: duplicate id ${rule._id}`, { cause: err });
      throw err;
    }
    return ruleOutput(rule);
  }

  async get(id: string): Promise<DynamicInfosOutput> {
    const rule = await this.rules.get(id);
    if (!rule) throw ruleNotFound(id);
    return ruleOutput(rule);
  }

  async list(query: ListQuery): Promise<{ count: number; rules: DynamicInfosOutput[] }> {
    const page = await this.rules.page(listRequest(query));
    return { count: page.count, rules: page.rules.map(ruleOutput) };
  }

  /**
   * Full replacement (REFERENCE §3.6). `author` and `creation_date` stay as stored and `last_modified_date` is
   * refreshed, whatever the body holds. The body `_id` may be left out; when given it must be the path's.
   */
  async update(id: string, input: RuleInput, author: string): Promise<DynamicInfosOutput> {
    const existing = await this.rules.get(id);
    if (!existing) throw ruleNotFound(id);
    if (input._id !== undefined && input._id !== id) throw new HttpError(400, 'failed to update dynamic infos: the _id field should not be modified');
    const now = this.clock.nowSec();
    // A rule written before Vigie may lack author or creation date: the editor and now stand in for them.
    const rule = ruleRecord(id, input, { author: existing.author ?? author, creation_date: existing.creation_date ?? now, last_modified_date: now });
    if (!(await this.rules.replace(rule))) throw ruleNotFound(id);
    return ruleOutput(rule);
  }

  async delete(id: string): Promise<Record<string, never>> {
    if (!(await this.rules.get(id))) throw ruleNotFound(id);
    if (!(await this.rules.delete(id))) throw ruleNotFound(id);
    return {};
  }
}
