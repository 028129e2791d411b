import { ErrorCodes, VigieError, type StoreAdapter, type StoreFactory } from '@vigie/kernel';
import { StoreJobStore } from '@vigie/store-jobs';
import { PostgresStore } from './postgres-store.js';

/**
 * The `postgres` store adapter, configured by the `[store]` section: `url` (required, `postgres://…`) and
 * `pool_size` (optional, connections per node, default 10).
 */
export function postgresStoreFactory(): StoreFactory {
  return async ({ config, logger }): Promise<StoreAdapter> => {
    const url = config.url?.trim();
    if (!url) {
      throw new VigieError(ErrorCodes.InvalidConfig, 'the postgres store needs [store] url', {
        details: ['[store] url: required with adapter = postgres (e.g. postgres://vigie@127.0.0.1:5432/vigie)'],
      });
    }
    const poolSize = config.pool_size === undefined ? undefined : Number(config.pool_size);
    if (poolSize !== undefined && !(Number.isInteger(poolSize) && poolSize >= 1 && poolSize <= 1000)) {
      throw new VigieError(ErrorCodes.InvalidConfig, `[store] pool_size must be an integer from 1 to 1000, not ${config.pool_size}`);
    }
    const store = await PostgresStore.open({ url, poolSize });
    logger.info({ pool: poolSize ?? 10 }, 'PostgreSQL store open');
    // Jobs are documents of the same database, read and locked through the store port.
    return { name: 'postgres', store, jobs: new StoreJobStore(store) };
  };
}
