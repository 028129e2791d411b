import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Collection, type Doc, type Store } from '@vigie/kernel';
import type { Rule } from './schemas.js';

/** A pattern object: event fields to match (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/**
 * An event-filter rule as stored in `eventfilter`: the API's fields and value forms (`ruleOutputSchema`). Optional
 * fields are present only when they were sent; the pipeline applies the defaults (`priority` 0, `enabled` true,
 * outcomes `pass`).
 */
export interface RuleRecord extends Doc, Rule {}

@injectable()
export class RuleRepository {
  readonly #rules: Collection<RuleRecord>;

  constructor(@inject(KernelTokens.Store) store: Store) {
    this.#rules = store.collection<RuleRecord>('eventfilter');
  }

  get(id: string): Promise<RuleRecord | null> {
    return this.#rules.findOne({ _id: id });
  }

  list(): Promise<RuleRecord[]> {
    return this.#rules.find({});
  }

  /** Throws the store's `DUPLICATE_KEY` error when the id exists. */
  insert(rule: RuleRecord): Promise<void> {
    return this.#rules.insertOne(rule);
  }

  /** Whole-document replacement; false when no rule has this id. */
  async replace(rule: RuleRecord): Promise<boolean> {
    return (await this.#rules.replaceOne({ _id: rule._id }, rule)).matchedCount === 1;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.#rules.deleteOne({ _id: id })).deletedCount === 1;
  }
}
