import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Collection, type Doc, type Store } from '@vigie/kernel';
import type { ListRequest } from './list-query.js';
import type { DynamicInfosRule } from './schemas.js';

/** A rule as stored in `dynamic_infos`: the API's fields and value forms (`dynamicInfosRuleSchema`), read as is by the engine. */
export interface DynamicInfosRecord extends Doc, DynamicInfosRule {}

@injectable()
export class DynamicInfosRepository {
  readonly #rules: Collection<DynamicInfosRecord>;
  /** Writes made through this process: the engine reads the rules again when it changes. */
  writes = 0;

  constructor(@inject(KernelTokens.Store) store: Store) {
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
