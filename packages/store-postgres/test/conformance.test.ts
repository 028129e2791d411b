import { createLogger } from '@vigie/kernel';
import { describeJobStoreConformance, describeStoreConformance, describeWithService, tcpReachable } from '@vigie/kernel-testing';
import { PostgresStore, postgresStoreFactory } from '../src/index.js';
import { createTestDatabase } from '../src/testing.js';

const available = await tcpReachable('127.0.0.1', 5432);

describeWithService('PostgreSQL', available, () => {
  describeStoreConformance('postgres', async () => {
    const database = await createTestDatabase();
    return { store: await PostgresStore.open({ url: database.url, poolSize: 3 }), cleanup: database.drop };
  });

  describeJobStoreConformance('postgres', async () => {
    const database = await createTestDatabase();
    const adapter = await postgresStoreFactory()({ config: { url: database.url, pool_size: '3' }, dataDir: '/nonexistent', logger: createLogger({ level: 'silent' }) });
    return {
      jobs: adapter.jobs,
      cleanup: async () => {
        await adapter.store.close();
        await database.drop();
      },
    };
  });
});
