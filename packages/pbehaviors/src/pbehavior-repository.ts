import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Filter, type FindOptions, type Store } from '@vigie/kernel';
import { entityReaderRef, type EntityReader } from '@vigie/context-graph';
import type { PbehaviorRecord } from './pbehavior.js';

export const pbehaviorCollection = 'default_pbehavior';

/** Store access for `default_pbehavior`, and the entity reads (through the context graph) that decide `eids`. */
@injectable()
export class PbehaviorRepository {
  readonly #store: Store;
  readonly #pbehaviors: Collection<PbehaviorRecord>;
  readonly #entities: EntityReader;

  constructor(@injectRef(kernelRefs.store) store: Store, @injectRef(entityReaderRef) entities: EntityReader) {
    this.#store = store;
    this.#pbehaviors = store.collection<PbehaviorRecord>(pbehaviorCollection);
    this.#entities = entities;
  }

  get(id: string): Promise<PbehaviorRecord | null> {
    return this.#pbehaviors.findOne({ _id: id });
  }

  find(filter: Filter = {}, options: FindOptions = {}): Promise<PbehaviorRecord[]> {
    return this.#pbehaviors.find(filter, options);
  }

  count(filter: Filter = {}): Promise<number> {
    return this.#pbehaviors.count(filter);
  }

  /** Throws a `DUPLICATE_KEY` error when the `_id` exists. */
  insert(record: PbehaviorRecord): Promise<void> {
    return this.#pbehaviors.insertOne(record);
  }

  async replace(record: PbehaviorRecord): Promise<boolean> {
    return (await this.#pbehaviors.replaceOne({ _id: record._id }, record)).matchedCount === 1;
  }

  async delete(id: string): Promise<number> {
    return (await this.#pbehaviors.deleteOne({ _id: id })).deletedCount;
  }

  /** Atomically: the old pbehavior moves to its archived copy, and the new one takes its `_id`. */
  async replaceArchiving(archived: PbehaviorRecord, replacedId: string, record: PbehaviorRecord): Promise<void> {
    await this.#store.batch([
      { op: 'insert', collection: pbehaviorCollection, doc: archived },
      { op: 'delete', collection: pbehaviorCollection, filter: { _id: replacedId } },
      { op: 'insert', collection: pbehaviorCollection, doc: record },
    ]);
  }

  /** Writes new `eids` of several pbehaviors in one batch. */
  async setEids(changes: readonly { id: string; eids: string[] }[]): Promise<void> {
    if (changes.length === 0) return;
    await this.#store.batch(
      changes.map(({ id, eids }) => ({ op: 'update' as const, collection: pbehaviorCollection, filter: { _id: id }, update: { $set: { eids } } })),
    );
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
