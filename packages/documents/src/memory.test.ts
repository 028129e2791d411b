import { createLogger } from '@vigie/kernel';
import { describeJobStoreConformance, describeStoreConformance } from '@vigie/kernel-testing';
import { memoryStoreFactory } from './memory-adapter.js';
import { createMemoryStore } from './memory.js';

describeStoreConformance('memory', async () => ({ store: createMemoryStore() }));
describeJobStoreConformance('memory', async () => {
  const adapter = await memoryStoreFactory()({ config: {}, dataDir: '/nonexistent', logger: createLogger({ level: 'silent' }) });
  return { jobs: adapter.jobs, cleanup: () => adapter.store.close() };
});
