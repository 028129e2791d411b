import type { FeatureStore, Store } from '@vigie/kernel';

/**
 * A whole store seen as a feature's (`kernelRefs.store`), for unit tests that build a repository or service
 * directly: every collection is reachable, and closing is left to the test.
 */
export function featureStoreOf(store: Store): FeatureStore {
  return {
    collection: ({ name }) => store.collection(name),
    batch: (operations) => store.batch(operations),
    vouch: (operations) => operations,
    listCollections: () => store.listCollections(),
    dropCollection: (name) => store.dropCollection(name),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
