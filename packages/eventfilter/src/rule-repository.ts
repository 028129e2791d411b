import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Store } from '@vigie/kernel';

/** A pattern object: event fields to match (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/**
 * An event-filter rule as stored in `eventfilter`: the API's field names and value forms, read as is by the event
 * pipeline. Optional fields are present only when they were sent; the pipeline applies the defaults (`priority`
 * 0, `enabled` true, outcomes `pass`).
 */
export interface RuleRecord extends Doc {
  _id: string;
  description?: string;
  /** `break`, `drop` or `enrichment`. */
  type: string;
  /** One pattern (the spec's form) … */
  pattern?: Pattern | null;
  /** … or a list of patterns, OR'ed (the original's form from 3.48); never both. */
  patterns?: Pattern[] | null;
  priority?: number;
  enabled?: boolean;
  external_data?: Record<string, unknown>;
  actions?: Record<string, unknown>[];
  on_success?: string | null;
  on_failure?: string | null;
}

@injectable()
export class RuleRepository {
  readonly #rules: Collection<RuleRecord>;

  constructor(@injectRef(kernelRefs.store) store: Store) {
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
