import type { CollectionRef } from '../refs.js';
import type { BatchOperation, BatchResult, Collection, Doc, Store, StoreChanges } from './port.js';

/** Who owns which collection: features by id, and the kernel's own (jobs). */
export type CollectionOwners = ReadonlyMap<string, string>;

/** The store a feature resolves (`kernelRefs.store`): its collections, reached by their references. */
export interface FeatureStore extends Omit<Store, 'collection'> {
  collection<T extends Doc>(ref: CollectionRef<T>): Collection<T>;
  /**
   * Hands operations on this feature's own collections to another feature's batch, for one atomic write spanning
   * both (an import's outcome committed with the entities it wrote through the context graph's service).
   */
  vouch(operations: readonly BatchOperation[]): readonly BatchOperation[];
}

/** Operations an owner vouched for: another feature's store accepts them in its batches. */
const vouched = new WeakSet<BatchOperation>();

/**
 * A feature's view of the store: only the collections it declared (`f.collection`). Other features' data is read
 * through the services they export; a call on another collection throws, naming the feature and the collection.
 */
export class OwnedStore implements FeatureStore {
  /** The store's write stamps (`Store.writeStamp`) of this feature's collections, where the store keeps them. */
  readonly writeStamp: ((collection: string) => number) | undefined;

  constructor(
    private readonly store: Store,
    private readonly featureId: string,
    private readonly owned: ReadonlySet<string>,
    private readonly owners: CollectionOwners,
  ) {
    const stamp = store.writeStamp?.bind(store);
    this.writeStamp = stamp
      ? (collection) => {
          this.#check(collection);
          return stamp(collection);
        }
      : undefined;
  }

  #check(name: string): void {
    if (this.owned.has(name)) return;
    const owner = this.owners.get(name);
    throw new Error(
      `feature ${this.featureId} uses collection ${name}, which it does not own` +
        (owner === undefined ? ' (declare it with f.collection)' : ` (${owner === 'kernel' ? 'the kernel' : `feature ${owner}`} does; use its services)`),
    );
  }

  /** The store's change notifications, for this feature's collections only. */
  get changes(): StoreChanges | undefined {
    const changes = this.store.changes;
    if (!changes) return undefined;
    return {
      subscribe: (listener) =>
        changes.subscribe((collection) => {
          if (collection === '' || this.owned.has(collection)) listener(collection);
        }),
    };
  }

  collection<T extends Doc>({ name }: CollectionRef<T>): Collection<T> {
    this.#check(name);
    return this.store.collection<T>(name);
  }

  async batch(operations: readonly BatchOperation[]): Promise<BatchResult> {
    for (const operation of operations) if (!vouched.has(operation)) this.#check(operation.collection);
    return this.store.batch(operations);
  }

  vouch(operations: readonly BatchOperation[]): readonly BatchOperation[] {
    for (const operation of operations) {
      this.#check(operation.collection);
      vouched.add(operation);
    }
    return operations;
  }

  listCollections(): Promise<string[]> {
    return this.store.listCollections();
  }

  dropCollection(name: string): Promise<void> {
    this.#check(name);
    return this.store.dropCollection(name);
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  close(): Promise<void> {
    return Promise.reject(new Error(`feature ${this.featureId} cannot close the store: the kernel does at shutdown`));
  }
}

/** Diagnostics over the whole store, for health checks (`kernelRefs.storeProbe`): nothing is returned of the data. */
export interface StoreProbe {
  ping(): Promise<void>;
  listCollections(): Promise<string[]>;
  /** Reads at most one document of the collection and drops it: it fails only if the collection cannot be read. */
  read(collection: string): Promise<void>;
}

export function storeProbe(store: Store): StoreProbe {
  return {
    ping: () => store.ping(),
    listCollections: () => store.listCollections(),
    read: async (collection) => void (await store.collection(collection).find({}, { limit: 1 })),
  };
}
