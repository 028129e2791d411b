import { inject, injectable } from 'tsyringe';
import { DocumentRepository, KernelTokens, type Doc, type Store } from '@vigie/kernel';
import type { RuleConfig, RuleInput, RulePatterns } from './rule-input.js';
import type { RuleType } from './rule-types.js';

/** A rule as stored in `meta_alarm_rules`, in the shape the correlation engine reads (REFERENCE §5.7). */
export interface MetaAlarmRuleRecord extends Doc {
  _id: string;
  name: string;
  type: RuleType;
  patterns: RulePatterns | null;
  config: RuleConfig | null;
  /** Stored only when set; the engine reads an absent value as false. */
  auto_resolve?: boolean;
  /** Stored only when set; the engine reads an absent value as the empty template. */
  output_template?: string;
}

export function ruleRecord(id: string, input: RuleInput): MetaAlarmRuleRecord {
  const { _id: _ignored, ...fields } = input;
  return { _id: id, ...fields };
}

/** The rules in `meta_alarm_rules`, by id. */
@injectable()
export class MetaAlarmRuleRepository extends DocumentRepository<MetaAlarmRuleRecord> {
  constructor(@inject(KernelTokens.Store) store: Store) {
    super(store, 'meta_alarm_rules', { order: { _id: 1 } });
  }
}
