import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Doc, type Filter, type FindOptions, type FeatureStore } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';
import { entityReaderRef, type EntityReader } from '@vigie/context-graph';
import type { PbehaviorRecord } from './pbehavior.js';

export const pbehaviorCollection = collectionRef<PbehaviorRecord>('default_pbehavior');

/** Store access for `default_pbehavior`, and the entity reads (through the context graph) that decide `eids`. */
@injectable()
export class PbehaviorRepository extends DocumentRepository<PbehaviorRecord> {
  readonly #store: FeatureStore;
  readonly #entities: EntityReader;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore, @injectRef(entityReaderRef) entities: EntityReader) {
    super(store, pbehaviorCollection, { order: { _id: 1 } });
    this.#store = store;
    this.#entities = entities;
  }

  find(filter: Filter = {}, options: FindOptions = {}): Promise<PbehaviorRecord[]> {
    return this.documents.find(filter, options);
  }

  count(filter: Filter = {}): Promise<number> {
    return this.documents.count(filter);
  }

  /** Atomically: the old pbehavior moves to its archived copy, and the new one takes its `_id`. */
  async replaceArchiving(archived: PbehaviorRecord, replacedId: string, record: PbehaviorRecord): Promise<void> {
    await this.#store.batch([
      { op: 'insert', collection: pbehaviorCollection.name, doc: archived },
      { op: 'delete', collection: pbehaviorCollection.name, filter: { _id: replacedId } },
      { op: 'insert', collection: pbehaviorCollection.name, doc: record },
    ]);
    this.wrote();
  }

  /** Writes new `eids` of several pbehaviors in one batch. */
  async setEids(changes: readonly { id: string; eids: string[] }[]): Promise<void> {
    if (changes.length === 0) return;
    await this.#store.batch(
      changes.map(({ id, eids }) => ({ op: 'update' as const, collection: pbehaviorCollection.name, filter: { _id: id }, update: { $set: { eids } } })),
    );
    this.wrote();
  }

  /** Ids of the entities a (checked) filter selects. */
  async matchingEntityIds(filter: Filter): Promise<string[]> {
    return this.#entities.ids(filter);
  }

  /** The entities among `ids` that exist; only `fields` of them when given. */
  entities(ids: readonly string[], fields?: Iterable<string>): Promise<Doc[]> {
    const projection = fields ? Object.fromEntries([...fields].map((field) => [field, 1 as const])) : undefined;
    return this.#entities.find({ _id: { $in: [...ids] } }, projection ? { projection } : {});
  }
}
