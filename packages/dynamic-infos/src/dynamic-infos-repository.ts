import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Store } from '@vigie/kernel';
import type { ListRequest } from './list-query.js';
import type { InfoValueType } from './schemas.js';

export interface DynamicInfo {
  name: string;
  /** The engine renders string values as templates (REFERENCE §5.11). */
  value: string | number | boolean | null;
  /** Stored only when sent. */
  type?: InfoValueType;
}

/** A rule as stored in `dynamic_infos`, in the shape the dynamic-infos engine reads (REFERENCE §4.12, §5.11). */
export interface DynamicInfosRecord extends Doc {
  _id: string;
  name: string;
  description: string;
  infos: DynamicInfo[];
  alarm_patterns: Record<string, unknown>[] | null;
  entity_patterns: Record<string, unknown>[] | null;
  /** Pbehavior types during which the rule does not apply; stored only when sent. */
  disable_during_periods?: string[] | null;
  author: string;
  creation_date: number;
  last_modified_date: number;
}

@injectable()
export class DynamicInfosRepository {
  readonly #rules: Collection<DynamicInfosRecord>;
  /** Writes made through this process: the engine reads the rules again when it changes. */
  writes = 0;

  constructor(@injectRef(kernelRefs.store) store: Store) {
    this.#rules = store.collection<DynamicInfosRecord>('dynamic_infos');
  }

  /** Throws a `DUPLICATE_KEY` error when the id is taken. */
  async insert(rule: DynamicInfosRecord): Promise<void> {
    await this.#rules.insertOne(rule);
    this.writes++;
  }

  /** Every rule, for the engine. */
  all(): Promise<DynamicInfosRecord[]> {
    return this.#rules.find({}, { sort: { _id: 1 } });
  }

  get(id: string): Promise<DynamicInfosRecord | null> {
    return this.#rules.findOne({ _id: id });
  }

  async page(request: ListRequest): Promise<{ count: number; rules: DynamicInfosRecord[] }> {
    const [count, rules] = await Promise.all([
      this.#rules.count(request.filter),
      this.#rules.find(request.filter, { sort: request.sort, skip: request.skip, ...(request.limit === undefined ? {} : { limit: request.limit }) }),
    ]);
    return { count, rules };
  }

  /** Full replacement; false when no rule has that id. */
  async replace(rule: DynamicInfosRecord): Promise<boolean> {
    const replaced = (await this.#rules.replaceOne({ _id: rule._id }, rule)).matchedCount === 1;
    this.writes++;
    return replaced;
  }

  async delete(id: string): Promise<boolean> {
    const deleted = (await this.#rules.deleteOne({ _id: id })).deletedCount === 1;
    this.writes++;
    return deleted;
  }
}
