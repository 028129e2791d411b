import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Filter, type FindOptions, type FeatureStore } from '@vigie/kernel';
import { entityCollection } from './entity-repository.js';

/**
 * Read access to the context graph's entities as stored, for features that select entities with their own filters
 * (pbehaviors, weather). Filters are the caller's to check (`assertSafeFilter` where they come from users).
 */
@injectable()
export class EntityReader {
  readonly #entities: Collection;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#entities = store.collection(entityCollection);
  }

  find<T extends Doc = Doc>(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.#entities.find(filter, options) as Promise<T[]>;
  }

  findOne<T extends Doc = Doc>(filter: Filter): Promise<T | null> {
    return this.#entities.findOne(filter) as Promise<T | null>;
  }

  /** Ids of the entities a filter selects. */
  async ids(filter: Filter): Promise<string[]> {
    return (await this.#entities.find(filter, { projection: { _id: 1 } })).map((entity) => entity._id);
  }
}
