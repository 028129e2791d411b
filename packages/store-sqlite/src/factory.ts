import { isAbsolute, join } from 'node:path';
import type { StoreAdapter, StoreFactory } from '@vigie/kernel';
import { StoreJobStore } from '@vigie/store-jobs';
import { SqliteStore } from './sqlite-store.js';

/**
 * The embedded default. `[store]` keys: `path` (default `<install>/var/lib/vigie.sqlite`; relative paths are
 * under the data directory) and `synchronous` (`full` or `normal`).
 */
export function sqliteStoreFactory(): StoreFactory {
  return async ({ config, dataDir }): Promise<StoreAdapter> => {
    const configured = config.path ?? 'vigie.sqlite';
    const path = configured === ':memory:' || isAbsolute(configured) ? configured : join(dataDir, configured);
    const synchronous = config.synchronous ?? 'full';
    if (synchronous !== 'full' && synchronous !== 'normal') throw new Error(`[store] synchronous must be full or normal, not ${synchronous}`);
    const store = new SqliteStore(path, { synchronous });
    return { name: 'sqlite', store, jobs: new StoreJobStore(store) };
  };
}
