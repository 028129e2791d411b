export { PostgresStore, changesChannel, tableName, type PostgresStoreOptions } from './postgres-store.js';
export { postgresStoreFactory } from './factory.js';
