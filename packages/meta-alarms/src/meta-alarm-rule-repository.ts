import { collectionRef, type Doc } from '@vigie/kernel';
import { documentRepositoryClass, type DocumentRepository } from '@vigie/feature-kit';
import type { RuleInput } from './rule-input.js';

/**
 * A rule as stored in `meta_alarm_rules`, in the shape the correlation engine reads (REFERENCE §5.7): the checked
 * input under its id. `auto_resolve` and `output_template` are stored only when set; the engine reads them absent as
 * false and as the empty template.
 */
export interface MetaAlarmRuleRecord extends Doc, Omit<RuleInput, '_id'> {
  _id: string;
}

export const metaAlarmRuleCollection = collectionRef<MetaAlarmRuleRecord>('meta_alarm_rules');

export function ruleRecord(id: string, input: RuleInput): MetaAlarmRuleRecord {
  const { _id: _ignored, ...fields } = input;
  return { _id: id, ...fields };
}

/** The rules in `meta_alarm_rules`, by id. */
export const MetaAlarmRuleRepository = documentRepositoryClass(metaAlarmRuleCollection, { order: { _id: 1 } });
export type MetaAlarmRuleRepository = DocumentRepository<MetaAlarmRuleRecord>;
