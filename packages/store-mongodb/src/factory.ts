import { ErrorCodes, VigieError, type StoreAdapter, type StoreFactory } from '@vigie/kernel';
import { StoreJobStore } from '@vigie/store-jobs';
import { createMongoStore } from './store.js';

/** Collection holding the scheduler's jobs, beside the store's collections in the same database. */
export const agendaJobsCollection = 'agenda_jobs';

/**
 * The `mongodb` store adapter, configured by the `[store]` section: `url` (required, a MongoDB connection
 * string) and `database` (optional; by default the one named in the URL, else `vigie`).
 */
export function mongoStoreFactory(): StoreFactory {
  return async ({ config, logger }): Promise<StoreAdapter> => {
    const url = config.url?.trim();
    if (!url) {
      throw new VigieError(ErrorCodes.InvalidConfig, 'the mongodb store needs [store] url', {
        details: ['[store] url: required with adapter = mongodb (e.g. mongodb://127.0.0.1:27017/vigie)'],
      });
    }
    const database = config.database?.trim();
    const store = await createMongoStore(url, database ? { database } : {});
    if (store.transactions) logger.info({ database: store.db.databaseName }, 'MongoDB store open; batches run in transactions');
    else logger.warn({ database: store.db.databaseName }, 'MongoDB store open on a standalone server: batch atomicity is best-effort (use a replica set)');
    if (store.changesUnavailable !== undefined) {
      logger.warn(
        { database: store.db.databaseName, reason: store.changesUnavailable },
        'MongoDB store without change streams: rules written through other nodes apply here only at the periodic refresh (10 s for rules); a replica set gives change streams',
      );
    }
    // Jobs go through the store port like any data: one connection pool, closed with the store.
    return { name: 'mongodb', store, jobs: new StoreJobStore(store, agendaJobsCollection) };
  };
}
