import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Doc, type FeatureStore } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';

import type { IdleRule } from './schemas.js';

/** A pattern object; its grammar is the engine's (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/** An idle rule as stored in `idle_rule`: the API's fields and value forms (`idleRuleSchema`), read as is by the engine. */
export interface IdleRuleRecord extends Doc, IdleRule {}

export const idleRuleCollection = collectionRef<IdleRuleRecord>('idle_rule');

/** The rules in `idle_rule`, by id, listed oldest first (the order they were created in). */
@injectable()
export class IdleRuleRepository extends DocumentRepository<IdleRuleRecord> {
  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    super(store, idleRuleCollection, { order: { creation_date: 1, _id: 1 } });
  }

  count(): Promise<number> {
    return this.documents.count();
  }
}
