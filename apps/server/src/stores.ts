import { memoryStoreFactory } from '@vigie/documents';
import type { StoreFactory } from '@vigie/kernel';

/** Store adapters by `[store] adapter` name; the embedded SQLite store is the default. */
export const availableStores: Readonly<Record<string, () => Promise<StoreFactory>>> = {
  sqlite: async () => (await import('@vigie/store-sqlite')).sqliteStoreFactory(),
  mongodb: async () => (await import('@vigie/store-mongodb')).mongoStoreFactory(),
  memory: async () => memoryStoreFactory(),
};

export const defaultStore = 'sqlite';
