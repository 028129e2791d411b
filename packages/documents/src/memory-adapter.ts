import type { StoreAdapter, StoreFactory } from '@vigie/kernel';
import { StoreJobStore } from '@vigie/store-jobs';
import { createMemoryStore } from './memory.js';

/** A store factory keeping everything in memory (tests, throwaway runs): nothing survives a restart. */
export function memoryStoreFactory(): StoreFactory {
  return async (): Promise<StoreAdapter> => {
    const store = createMemoryStore();
    return { name: 'memory', store, jobs: new StoreJobStore(store) };
  };
}
