import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { HttpError } from '@vigie/kernel';
import type { RuleInput } from './rule-input.js';
import type { MetaAlarmRuleOutput } from './schemas.js';
import { CorrelationGroupRepository } from './correlation-groups.js';
import { MetaAlarmRuleRepository, ruleRecord, type MetaAlarmRuleRecord } from './meta-alarm-rule-repository.js';

export function ruleOutput(rule: MetaAlarmRuleRecord): MetaAlarmRuleOutput {
  return {
    _id: rule._id,
    name: rule.name,
    type: rule.type,
    patterns: rule.patterns ?? null,
    config: rule.config ?? null,
    ...(rule.auto_resolve === undefined ? {} : { auto_resolve: rule.auto_resolve }),
    ...(rule.output_template === undefined ? {} : { output_template: rule.output_template }),
  };
}

export function ruleNotFound(id: string): HttpError {
  return new HttpError(404, `Rule ID=${id} not found`);
}

@injectable()
export class MetaAlarmRuleService {
  constructor(
    @inject(MetaAlarmRuleRepository) private readonly rules: MetaAlarmRuleRepository,
    @inject(CorrelationGroupRepository) private readonly groups: CorrelationGroupRepository,
  ) {}

  /** Returns the new rule's id. */
  /** The rule a body describes, as it would be stored (the preview's rule). */
  draft(input: RuleInput): MetaAlarmRuleRecord {
    return ruleRecord(input._id ?? randomUUID(), input);
  }

  async create(input: RuleInput): Promise<string> {
    const rule = ruleRecord(input._id ?? randomUUID(), input);
    await this.rules.insert(rule);
    return rule._id;
  }

  async get(id: string): Promise<MetaAlarmRuleOutput | null> {
    const rule = await this.rules.get(id);
    return rule ? ruleOutput(rule) : null;
  }

  async list(): Promise<MetaAlarmRuleOutput[]> {
    return (await this.rules.list()).map(ruleOutput);
  }

  /** Full replacement of an existing rule; the body's `_id`, when given, must be the path's. */
  async update(id: string, input: RuleInput): Promise<MetaAlarmRuleOutput> {
    if (!(await this.rules.get(id))) throw ruleNotFound(id);
    if (input._id !== undefined && input._id !== id) throw new HttpError(400, 'the _id field should not be modified');
    const rule = ruleRecord(id, input);
    if (!(await this.rules.replace(rule))) throw ruleNotFound(id);
    // A changed rule starts counting again: alarms gathered under the old config do not count toward the new one.
    await this.groups.delete(id);
    return ruleOutput(rule);
  }

  async delete(id: string): Promise<{ acknowledged: true; deletedCount: number }> {
    const deleted = await this.rules.delete(id);
    await this.groups.delete(id);
    return { acknowledged: true, deletedCount: deleted ? 1 : 0 };
  }
}
