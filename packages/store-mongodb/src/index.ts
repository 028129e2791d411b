export { createMongoStore, MongoStore, type MongoStoreOptions } from './store.js';
export { mongoStoreFactory, agendaJobsCollection } from './factory.js';
