import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Filter, type FindOptions, type FeatureStore } from '@vigie/kernel';
import { PreviewCollector, type PreviewPage } from '@vigie/rule-schemas';
import { toEntity } from './entity.js';
import { entityCollection } from './entity-repository.js';

/** An entity as rule previews list it. */
export interface PreviewEntity {
  _id: string;
  name: string;
  type: string;
  enabled: boolean;
}

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

  /**
   * The entities a checked filter selects now, for rule previews (pbehavior filters): counted over every entity
   * the filter selects, the first page by id.
   */
  async preview(filter: Filter, limit: number): Promise<PreviewPage<PreviewEntity>> {
    const collector = new PreviewCollector<string>('entities', limit);
    const ids = await this.ids(filter);
    ids.sort();
    for (const id of ids) collector.offer(true, () => id);
    const page = collector.page();
    const listed = new Map((await this.#entities.find({ _id: { $in: page.data } })).map((doc) => [doc._id, toEntity(doc)]));
    const data = page.data.flatMap((id) => {
      const entity = listed.get(id);
      return entity ? [{ _id: entity._id, name: entity.name, type: entity.type, enabled: entity.enabled }] : [];
    });
    return { ...page, scanned: await this.#entities.count({}), data };
  }

  /** Ids of the entities a filter selects. */
  async ids(filter: Filter): Promise<string[]> {
    return (await this.#entities.find(filter, { projection: { _id: 1 } })).map((entity) => entity._id);
  }
}
