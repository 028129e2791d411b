import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Collection, type Doc, type Store } from '@vigie/kernel';

import type { IdleRule } from './schemas.js';

/** A pattern object; its grammar is the engine's (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/** An idle rule as stored in `idle_rule`: the API's fields and value forms (`idleRuleSchema`), read as is by the engine. */
export interface IdleRuleRecord extends Doc, IdleRule {}

@injectable()
export class IdleRuleRepository {
  readonly #rules: Collection<IdleRuleRecord>;
  /** Counts the writes of this process, so the engine knows at once when rules appear. */
  writes = 0;

  constructor(@inject(KernelTokens.Store) store: Store) {
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
