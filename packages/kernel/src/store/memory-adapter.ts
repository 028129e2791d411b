import { StoreAgendaBackend } from '../scheduler/store-job-repository.js';
import { createMemoryStore } from './memory.js';
import type { StoreAdapter, StoreFactory } from './port.js';

/** A store factory keeping everything in memory (tests, throwaway runs): nothing survives a restart. */
export function memoryStoreFactory(): StoreFactory {
  return async (): Promise<StoreAdapter> => {
    const store = createMemoryStore();
    return { name: 'memory', store, agendaBackend: () => new StoreAgendaBackend(store) };
  };
}
