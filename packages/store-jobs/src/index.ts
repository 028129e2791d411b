export { StoreJobStore } from './store-job-store.js';
