import { memoryStoreFactory } from '@vigie/documents';
import type { StoreFactory } from '@vigie/kernel';

/** Store adapters by `[store] adapter` name; the embedded SQLite store is the default. */
export const availableStores: Readonly<Record<string, () => Promise<StoreFactory>>> = {
  sqlite: async () => (await import('@vigie/store-sqlite')).sqliteStoreFactory(),
  mongodb: async () => (await import('@vigie/store-mongodb')).mongoStoreFactory(),
  postgres: async () => (await import('@vigie/store-postgres')).postgresStoreFactory(),
  memory: async () => memoryStoreFactory(),
};

export const defaultStore = 'sqlite';

/** The adapter a `[store] url` names by its scheme, when `[store] adapter` is not set. */
export function storeForUrl(url: string | undefined): string | undefined {
  const scheme = url?.trim().split(':', 1)[0]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme === 'mongodb' || scheme === 'mongodb+srv') return 'mongodb';
  return undefined;
}
