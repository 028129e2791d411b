import { memoryStoreFactory } from '@vigie/documents';
import { ErrorCodes, VigieError, type Collection, type Store, type StoreFactory } from '@vigie/kernel';

const collectionMethods = [
  'find',
  'findOne',
  'count',
  'insertOne',
  'insertMany',
  'replaceOne',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'deleteOne',
  'deleteMany',
  'createIndex',
] as const;

/** The in-memory store, except that every operation on `failing` rejects with a `STORE_FAILURE` error. */
export function storeFailingOn(failing: string): StoreFactory {
  const failure = () => Promise.reject(new VigieError(ErrorCodes.StoreFailure, `collection ${failing} is unavailable`));
  const broken = { name: failing, ...Object.fromEntries(collectionMethods.map((method) => [method, failure])) } as unknown as Collection;
  return async (context) => {
    const adapter = await memoryStoreFactory()(context);
    const inner = adapter.store;
    const store: Store = {
      collection: (name: string) => (name === failing ? broken : inner.collection(name)) as never,
      batch: (operations) => (operations.some((o) => o.collection === failing) ? failure() : inner.batch(operations)),
      listCollections: () => inner.listCollections(),
      dropCollection: (name) => inner.dropCollection(name),
      ping: () => inner.ping(),
      close: () => inner.close(),
    };
    return { ...adapter, store };
  };
}
