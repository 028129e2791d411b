import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type CollectionRef, type Doc, type FeatureStore, type SortSpec, type StoreChanges } from '@vigie/kernel';

/**
 * The get/list/insert/replace/delete of one collection whose documents are keyed by `_id`, with one contract for
 * every feature:
 *
 * - `get(id)` → the document, or null;
 * - `list()` → every document, in the repository's order (the store's own order when none is given);
 * - `insert(doc)` → the stored document; the store's `DuplicateKeyError` (code `DUPLICATE_KEY`) when the id is taken;
 * - `replace(doc)` → the stored document, or null when no document has `doc._id` (nothing is created);
 * - `delete(id)` → true when a document was deleted.
 *
 * A feature repository with queries of its own extends it (they reach the collection through `documents`); one
 * without is a `documentRepositoryClass`. The collection is the feature's own: it declares it with `f.collection`
 * (which also declares its indexes), and the store it is given (`kernelRefs.store`) reaches no other.
 */
export class DocumentRepository<T extends Doc> {
  protected readonly documents: Collection<T>;
  readonly #order: SortSpec | undefined;
  readonly #changes: StoreChanges | undefined;
  readonly #store: FeatureStore;
  readonly #name: string;
  #writes = 0;

  constructor(store: FeatureStore, collection: CollectionRef<T>, options: { order?: SortSpec } = {}) {
    this.documents = store.collection(collection);
    this.#order = options.order;
    this.#changes = store.changes;
    this.#store = store;
    this.#name = collection.name;
  }

  /**
   * The store's write stamp of the collection (`Store.writeStamp`): it moves with every committed write to it, by
   * whatever path, so documents read from it stay current while it stays put. Undefined on a store several nodes
   * share, where only a read tells.
   */
  get stamp(): number | undefined {
    return this.#store.writeStamp?.(this.#name);
  }

  /**
   * Calls `listener` after a write to the collection by any node sharing the store, when the store says so (see
   * `Store.changes`; never otherwise). Returns the unsubscription.
   */
  watch(listener: () => void): () => void {
    const name = this.documents.name;
    return this.#changes?.subscribe((collection) => {
      if (collection === '' || collection === name) listener();
    }) ?? (() => undefined);
  }

  /**
   * How many writes went through this repository in this process: an engine that keeps the documents in memory
   * reads them again when this changes.
   */
  get writes(): number {
    return this.#writes;
  }

  get(id: string): Promise<T | null> {
    return this.documents.findOne({ _id: id });
  }

  list(): Promise<T[]> {
    return this.documents.find({}, this.#order ? { sort: this.#order } : {});
  }

  async insert(doc: T): Promise<T> {
    await this.documents.insertOne(doc);
    this.wrote();
    return doc;
  }

  async replace(doc: T): Promise<T | null> {
    const { matchedCount } = await this.documents.replaceOne({ _id: doc._id }, doc);
    this.wrote();
    return matchedCount === 1 ? doc : null;
  }

  async delete(id: string): Promise<boolean> {
    const { deletedCount } = await this.documents.deleteOne({ _id: id });
    this.wrote();
    return deletedCount === 1;
  }

  /** Counts a write a subclass made on its own (a batch, an update): the `writes` readers see it too. */
  protected wrote(): void {
    this.#writes++;
  }
}

/**
 * An injectable `DocumentRepository` class for one collection (the store comes from `kernelRefs.store`, the feature's own): the whole
 * repository of a feature that needs no query of its own.
 *
 *     export const webhookCollection = collectionRef<WebhookRecord>('webhooks');
 *     export const WebhookRepository = documentRepositoryClass(webhookCollection, { order: { _id: 1 } });
 *     export type WebhookRepository = DocumentRepository<WebhookRecord>;
 */
export function documentRepositoryClass<T extends Doc>(collection: CollectionRef<T>, options: { order?: SortSpec } = {}): new (store: FeatureStore) => DocumentRepository<T> {
  @injectable()
  class CollectionRepository extends DocumentRepository<T> {
    constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
      super(store, collection, options);
    }
  }
  return CollectionRepository;
}
