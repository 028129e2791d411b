import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Store } from '@vigie/kernel';

/** A pattern object; its grammar is the engine's (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/** The fields of an idle rule, the same in the store and in the API. */
export interface IdleRuleFields {
  _id: string;
  name: string;
  description: string;
  /** `last_event` or `last_update`. */
  type: string;
  /** `<number><unit>`, e.g. `3m`. */
  duration: string;
  operation: { type: string; parameters: Record<string, unknown> };
  alarm_patterns: Pattern[] | null;
  entity_patterns: Pattern[] | null;
  /** Stored when given (the original, 4.2.94, accepts it); the engine gives it no meaning. */
  disable_during_periods?: string[] | null;
  author: string;
  creation_date: number;
  last_modified_date: number;
}

/** An idle rule as stored in `idle_rule`: the API's field names and value forms, read as is by the engine. */
export interface IdleRuleRecord extends Doc, IdleRuleFields {}

@injectable()
export class IdleRuleRepository {
  readonly #rules: Collection<IdleRuleRecord>;
  /** Counts the writes of this process, so the engine knows at once when rules appear. */
  writes = 0;

  constructor(@injectRef(kernelRefs.store) store: Store) {
    this.#rules = store.collection<IdleRuleRecord>('idle_rule');
  }

  get(id: string): Promise<IdleRuleRecord | null> {
    return this.#rules.findOne({ _id: id });
  }

  count(): Promise<number> {
    return this.#rules.count();
  }

  /** Oldest first: the order the rules were created in. */
  list(): Promise<IdleRuleRecord[]> {
    return this.#rules.find({}, { sort: { creation_date: 1, _id: 1 } });
  }

  /** Throws the store's `DUPLICATE_KEY` error when the id exists. */
  async insert(rule: IdleRuleRecord): Promise<void> {
    await this.#rules.insertOne(rule);
    this.writes++;
  }

  /** Whole-document replacement; false when no rule has this id. */
  async replace(rule: IdleRuleRecord): Promise<boolean> {
    const matched = (await this.#rules.replaceOne({ _id: rule._id }, rule)).matchedCount === 1;
    this.writes++;
    return matched;
  }

  async delete(id: string): Promise<number> {
    const deleted = (await this.#rules.deleteOne({ _id: id })).deletedCount;
    this.writes++;
    return deleted;
  }
}
