import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Doc, type FeatureStore } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';
import type { ListRequest } from './list-query.js';
import type { DynamicInfosRule } from './schemas.js';

/** A rule as stored in `dynamic_infos`: the API's fields and value forms (`dynamicInfosRuleSchema`), read as is by the engine. */
export interface DynamicInfosRecord extends Doc, DynamicInfosRule {}

export const dynamicInfosCollection = collectionRef<DynamicInfosRecord>('dynamic_infos');

/** The rules in `dynamic_infos`, by id. */
@injectable()
export class DynamicInfosRepository extends DocumentRepository<DynamicInfosRecord> {
  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    super(store, dynamicInfosCollection, { order: { _id: 1 } });
  }

  async page(request: ListRequest): Promise<{ count: number; rules: DynamicInfosRecord[] }> {
    const [count, rules] = await Promise.all([
      this.documents.count(request.filter),
      this.documents.find(request.filter, { sort: request.sort, skip: request.skip, ...(request.limit === undefined ? {} : { limit: request.limit }) }),
    ]);
    return { count, rules };
  }
}
