export { SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export { sqliteStoreFactory } from './factory.js';
