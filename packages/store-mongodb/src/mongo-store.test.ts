import { randomUUID } from 'node:crypto';
import { MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes, createLogger, hasCode } from '@vigie/kernel';
import { describeJobStoreConformance, describeStoreConformance, describeWithService } from '@vigie/kernel-testing';
import { agendaJobsCollection, createMongoStore, mongoStoreFactory, type MongoStore } from './index.js';
import { jongodbReplicaSetArgs, locateJongodb, startJongodb, type RunningJongodb } from './testing.js';

// Which server the tests talk to: MONGODB_URL when set; otherwise the jongodb wire-compatible test server,
// once as a standalone server (batches compensated) and once as a single-node replica set (batches in
// transactions), so both batch paths run.

/** Conformance cases jongodb 0.1.6 cannot pass, and why. Applied to jongodb only, never to MONGODB_URL. */
const jongodbGaps: Record<string, string> = {
  'projection includes or excludes fields': 'jongodb 0.1.6 ignores find projections (it returns whole documents)',
  'update with $push': 'jongodb 0.1.6 has no $push update operator',
  'update with $pull': 'jongodb 0.1.6 has no $pull update operator',
  'update with $min, $max and $pullAll': 'jongodb 0.1.6 has no $min, $max and $pullAll update operators',
  'listCollections and dropCollection': 'jongodb 0.1.6 has no listCollections and no drop command',
};

interface Target {
  title: string;
  /** A running server's URL, or the jongodb arguments to start one with. */
  server: { url: string } | { jongodbArgs: readonly string[] };
  skip: Record<string, string>;
  /** What `hello` must lead the store to choose, where the test knows it. */
  transactions?: boolean;
}

const externalUrl = process.env.MONGODB_URL;
const jongodb = externalUrl ? undefined : locateJongodb();

const targets: Target[] = externalUrl
  ? [{ title: 'MongoDB at MONGODB_URL', server: { url: externalUrl }, skip: {} }]
  : [
      { title: 'jongodb standalone (compensated batches)', server: { jongodbArgs: [] }, skip: jongodbGaps, transactions: false },
      {
        title: 'jongodb single-node replica set (transactions)',
        server: { jongodbArgs: jongodbReplicaSetArgs },
        skip: jongodbGaps,
        transactions: true,
      },
    ];

const unavailable = jongodb && 'unavailable' in jongodb ? `MONGODB_URL is unset and ${jongodb.unavailable}` : undefined;

function uniqueDatabase(): string {
  return `vigie_test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}

/** Records log lines so tests can read what the factory logged. */
function memoryLogger(): { logger: ReturnType<typeof createLogger>; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) } });
  return { logger, lines };
}

describeWithService(unavailable === undefined ? 'MongoDB' : `MongoDB (${unavailable})`, unavailable === undefined, () => {
  for (const target of targets) {
    describe(target.title, () => {
      let server: RunningJongodb | undefined;
      let url = '';
      let admin: MongoClient;
      const isJongodb = 'jongodbArgs' in target.server;

      beforeAll(async () => {
        if ('jongodbArgs' in target.server) {
          server = await startJongodb((jongodb as { binary: string }).binary, target.server.jongodbArgs);
          url = server.url;
        } else {
          url = target.server.url;
        }
        admin = new MongoClient(url);
        await admin.connect();
      });

      afterAll(async () => {
        await admin?.close();
        await server?.stop();
      });

      async function dropDatabase(name: string): Promise<void> {
        try {
          await admin.db(name).dropDatabase();
        } catch (err) {
          // jongodb has no dropDatabase; its databases live in memory and go with the process in afterAll.
          if (!(isJongodb && (err as { code?: unknown }).code === 59)) throw err;
        }
      }

      async function withStore(work: (store: MongoStore, database: string) => Promise<void>): Promise<void> {
        const database = uniqueDatabase();
        const store = await createMongoStore(url, { database });
        try {
          await work(store, database);
        } finally {
          await store.close();
          await dropDatabase(database);
        }
      }

      describeStoreConformance(
        'mongodb',
        async () => {
          const database = uniqueDatabase();
          return { store: await createMongoStore(url, { database }), cleanup: () => dropDatabase(database) };
        },
        { skip: target.skip },
      );

      describeJobStoreConformance('mongodb', async () => {
        const database = uniqueDatabase();
        const adapter = await mongoStoreFactory()({ config: { url, database }, dataDir: '/nonexistent', logger: createLogger({ level: 'silent' }) });
        return {
          jobs: adapter.jobs,
          cleanup: async () => {
            await adapter.store.close();
            await dropDatabase(database);
          },
        };
      });

      describe('mongodb adapter', () => {
        if (target.transactions !== undefined) {
          it(`chooses ${target.transactions ? 'transactions' : 'compensation'} for batches from the server's hello`, async () => {
            await withStore(async (store) => {
              expect(store.transactions).toBe(target.transactions);
            });
          });
        }

        it('a failed batch leaves every touched document as it was', async () => {
          await withStore(async (store) => {
            const left = store.collection('left');
            const right = store.collection('right');
            await left.insertMany([
              { _id: 'l1', n: 1 },
              { _id: 'l2', n: 2 },
              { _id: 'l3', n: 3 },
            ]);
            await right.insertOne({ _id: 'r1', v: 'keep' });
            await expect(
              store.batch([
                { op: 'update', collection: 'left', filter: { n: { $gte: 2 } }, update: { $inc: { n: 10 } }, multi: true },
                { op: 'update', collection: 'left', filter: { _id: 'l2' }, update: { $set: { twice: true } } },
                { op: 'replace', collection: 'right', filter: { _id: 'r1' }, doc: { _id: 'r1', v: 'replaced' } },
                { op: 'delete', collection: 'left', filter: { _id: 'l1' } },
                { op: 'update', collection: 'right', filter: { kind: 'new' }, update: { $set: { v: 'upserted' } }, upsert: true },
                { op: 'insert', collection: 'right', doc: { _id: 'r2' } },
                { op: 'insert', collection: 'right', doc: { _id: 'r1' } },
              ]),
            ).rejects.toMatchObject({ code: ErrorCodes.DuplicateKey });
            expect(await left.find({}, { sort: { _id: 1 } })).toEqual([
              { _id: 'l1', n: 1 },
              { _id: 'l2', n: 2 },
              { _id: 'l3', n: 3 },
            ]);
            expect(await right.find({})).toEqual([{ _id: 'r1', v: 'keep' }]);
          });
        });

        it('insertMany of nothing and an empty batch write nothing', async () => {
          await withStore(async (store) => {
            await store.collection('things').insertMany([]);
            expect(await store.batch([])).toEqual({ inserted: 0, matched: 0, modified: 0, upserted: 0, deleted: 0 });
            expect(await store.collection('things').count()).toBe(0);
          });
        });

        it('a duplicate key error reads like the memory engine one', async () => {
          await withStore(async (store) => {
            const c = store.collection('things');
            await c.createIndex({ keys: { code: 1 }, unique: true, name: 'code_unique' });
            await c.insertOne({ _id: '1', code: 'A' });
            const err: unknown = await c.insertOne({ _id: '2', code: 'A' }).catch((e: unknown) => e);
            expect(hasCode(err, ErrorCodes.DuplicateKey)).toBe(true);
            expect((err as Error).message).toBe('E11000 duplicate key error collection: things index: code_unique dup key: { code: "A" }');
            expect(err).toMatchObject({ collection: 'things', key: { code: 'A' } });
          });
        });

        it('other driver errors become STORE_FAILURE errors', async () => {
          await withStore(async (store) => {
            const c = store.collection('things');
            await c.insertOne({ _id: 'a', n: 1 });
            const err: unknown = await c.find({ n: { $bogus: 1 } }).catch((e: unknown) => e);
            expect(hasCode(err, ErrorCodes.StoreFailure), String(err)).toBe(true);
            expect((err as Error).message).toMatch(/^mongodb: /);
          });
        });

        it('updates and filters are checked before anything is sent', async () => {
          await withStore(async (store) => {
            const c = store.collection('things');
            await c.insertOne({ _id: 'a', n: 1 });
            await expect(c.updateOne({ _id: 'a' }, { $set: { when: new Date() } })).rejects.toMatchObject({ code: ErrorCodes.StoreFailure });
            await expect(c.updateOne({ _id: 'a' }, { $rename: { n: 'm' } } as never)).rejects.toMatchObject({ code: ErrorCodes.StoreFailure });
            await expect(c.updateMany({ $where: 'true' }, { $set: { n: 2 } })).rejects.toMatchObject({ code: ErrorCodes.UnsafeFilter });
            await expect(
              store.batch([
                { op: 'update', collection: 'things', filter: { _id: 'a' }, update: { $set: { n: 2 } } },
                { op: 'delete', collection: 'things', filter: { $function: {} } },
              ]),
            ).rejects.toMatchObject({ code: ErrorCodes.UnsafeFilter });
            expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
          });
        });

        it('an upsert whose filter names no _id stores a string _id', async () => {
          await withStore(async (store) => {
            const c = store.collection('things');
            const r = await c.updateOne({ kind: 'k' }, { $set: { n: 1 } }, { upsert: true });
            expect(typeof r.upsertedId).toBe('string');
            expect(await c.findOne({ kind: 'k' })).toEqual({ _id: r.upsertedId, kind: 'k', n: 1 });
            const upserted = await c.findOneAndUpdate({ kind: 'j' }, { $set: { n: 2 }, $setOnInsert: { created: 1 } }, { upsert: true });
            expect(upserted).toEqual({ _id: expect.any(String), kind: 'j', n: 2, created: 1 });
          });
        });

        it('BSON values written by other programs come back as plain JSON', async () => {
          await withStore(async (store, database) => {
            const oid = new ObjectId('65a000000000000000000001');
            await admin.db(database).collection('things').insertOne({ _id: oid, at: new Date(0), nested: [{ ref: oid }] } as never);
            const [doc] = await store.collection('things').find({});
            expect(doc).toEqual({ _id: { $oid: oid.toHexString() }, at: { $date: '1970-01-01T00:00:00Z' }, nested: [{ ref: { $oid: oid.toHexString() } }] });
          });
        });

        it('a closed store refuses every call with STORE_FAILURE', async () => {
          const store = await createMongoStore(url, { database: uniqueDatabase() });
          const c = store.collection('things');
          await store.close();
          await store.close();
          await expect(c.find({})).rejects.toMatchObject({ code: ErrorCodes.StoreFailure });
          await expect(store.ping()).rejects.toMatchObject({ code: ErrorCodes.StoreFailure });
          await expect(store.batch([])).rejects.toMatchObject({ code: ErrorCodes.StoreFailure });
        });

        it('the factory opens the configured database and keeps the jobs in it', async () => {
          const database = uniqueDatabase();
          const { logger, lines } = memoryLogger();
          const adapter = await mongoStoreFactory()({ config: { adapter: 'mongodb', url, database }, dataDir: '/nonexistent', logger });
          try {
            expect(adapter.name).toBe('mongodb');
            await adapter.store.collection('things').insertOne({ _id: 'a' });
            expect(await admin.db(database).collection('things').countDocuments({})).toBe(1);
            await adapter.jobs.open();
            await adapter.jobs.save({ name: 'say-hello', priority: 0, nextRunAt: null, type: 'normal', data: { to: 'vigie' } });
            expect(await admin.db(database).collection(agendaJobsCollection).countDocuments({ name: 'say-hello' })).toBe(1);
            const transactions = (adapter.store as MongoStore).transactions;
            expect(lines.some((l) => (transactions ? /transactions/ : /best-effort/).test(l.msg))).toBe(true);
          } finally {
            await adapter.store.close();
            await dropDatabase(database);
          }
        });

        // The change-stream path itself needs a replica set (MONGODB_URL): the two-node suites exercise it there.
        if (isJongodb) {
          it('opens without change notifications where the server has no change streams, and warns once', async () => {
            const database = uniqueDatabase();
            const { logger, lines } = memoryLogger();
            const adapter = await mongoStoreFactory()({ config: { adapter: 'mongodb', url, database }, dataDir: '/nonexistent', logger });
            try {
              expect(adapter.store.changes).toBeUndefined();
              // jongodb refuses a database-level aggregate ('aggregate must be a string'), so $changeStream is never reached.
              expect((adapter.store as MongoStore).changesUnavailable).toMatch(/\S/);
              await adapter.store.collection('things').insertOne({ _id: 'a', n: 1 });
              expect(await adapter.store.collection('things').findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
              const warnings = lines.filter((l) => /change streams/.test(l.msg));
              expect(warnings).toHaveLength(1);
              expect(warnings[0]).toMatchObject({ level: 40, msg: expect.stringMatching(/other nodes .* periodic refresh .* replica set/) });
            } finally {
              await adapter.store.close();
              await dropDatabase(database);
            }
          });
        }
      });
    });
  }
});

describe('mongoStoreFactory configuration', () => {
  it('requires [store] url', async () => {
    const err: unknown = await mongoStoreFactory()({ config: { adapter: 'mongodb' }, dataDir: '/nonexistent', logger: createLogger({ level: 'silent' }) }).catch(
      (e: unknown) => e,
    );
    expect(hasCode(err, ErrorCodes.InvalidConfig)).toBe(true);
    expect((err as { details: string[] }).details).toEqual([expect.stringContaining('[store] url')]);
  });

  it('fails with STORE_FAILURE on a malformed URL', async () => {
    await expect(createMongoStore('not-a-mongodb-url')).rejects.toMatchObject({ code: ErrorCodes.StoreFailure });
  });
});
