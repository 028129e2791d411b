import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test server (tests of any package): loopback, trust authentication (`.ci/run` makes sure it answers). */
export const serverUrl = process.env.VIGIE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of its own (random name) on the shared server, dropped by `drop` whoever is still connected. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `vigie_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
