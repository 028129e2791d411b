import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Store } from '@vigie/kernel';
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

@injectable()
export class MetaAlarmRuleRepository {
  readonly #rules: Collection<MetaAlarmRuleRecord>;
  /** Writes made by this process: the correlation engine reads the rules again when it changed. */
  writes = 0;

  constructor(@injectRef(kernelRefs.store) store: Store) {
    this.#rules = store.collection<MetaAlarmRuleRecord>('meta_alarm_rules');
  }

  /** Throws a `DUPLICATE_KEY` error when the id is taken. */
  async insert(rule: MetaAlarmRuleRecord): Promise<void> {
    await this.#rules.insertOne(rule);
    this.writes++;
  }

  get(id: string): Promise<MetaAlarmRuleRecord | null> {
    return this.#rules.findOne({ _id: id });
  }

  list(): Promise<MetaAlarmRuleRecord[]> {
    return this.#rules.find({}, { sort: { _id: 1 } });
  }

  /** Full replacement; false when no rule has that id. */
  async replace(rule: MetaAlarmRuleRecord): Promise<boolean> {
    const replaced = (await this.#rules.replaceOne({ _id: rule._id }, rule)).matchedCount === 1;
    this.writes++;
    return replaced;
  }

  async delete(id: string): Promise<number> {
    const deleted = (await this.#rules.deleteOne({ _id: id })).deletedCount;
    this.writes++;
    return deleted;
  }
}
