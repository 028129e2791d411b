import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { describeWithService, tcpReachable } from '@vigie/kernel-testing';
import { PostgresStore } from '../src/index.js';
import { prefilter } from '../src/prefilter.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

const available = await tcpReachable('127.0.0.1', 5432);

describeWithService('PostgreSQL', available, () => {
  let database: TestDatabase;
  let nodeA: PostgresStore;
  let nodeB: PostgresStore;

  beforeEach(async () => {
    database = await createTestDatabase();
    nodeA = await PostgresStore.open({ url: database.url, poolSize: 4 });
    nodeB = await PostgresStore.open({ url: database.url, poolSize: 4 });
  });

  afterEach(async () => {
    await nodeA.close();
    await nodeB.close();
    await database.drop();
  });

  it('two nodes claiming documents at the same time each claim a document once', async () => {
    const jobs = nodeA.collection('jobs');
    await jobs.createIndex({ keys: { state: 1 } });
    await jobs.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: `j${String(i).padStart(2, '0')}`, state: 'due', owner: null })));
    const claim = async (store: PostgresStore, owner: string): Promise<string | undefined> =>
      (await store.collection('jobs').findOneAndUpdate({ state: 'due', owner: null }, { $set: { state: 'running', owner } }, { sort: { _id: 1 } }))?._id;
    const claims = await Promise.all(Array.from({ length: 15 }, (_, i) => [claim(nodeA, `a${i}`), claim(nodeB, `b${i}`)]).flat());
    const claimed = claims.filter((id): id is string => id !== undefined);
    expect(claimed).toHaveLength(20);
    expect(new Set(claimed).size).toBe(20);
    expect(await jobs.count({ state: 'running' })).toBe(20);
    const owners = (await jobs.find({})).map((doc) => doc.owner);
    expect(new Set(owners).size).toBe(20);
  });

  it('two nodes counting in the same new document at the same time: it is made once and every count lands', async () => {
    // The audit log's minute records of the event intake are counted this way from every node.
    const count = (store: PostgresStore, node: string) =>
      store.collection('tallies').updateOne({ _id: 'minute' }, { $setOnInsert: { first: node }, $inc: { requests: 1 } }, { upsert: true });
    await Promise.all(Array.from({ length: 20 }, () => [count(nodeA, 'a'), count(nodeB, 'b')]).flat());
    const tallies = await nodeA.collection('tallies').find({});
    expect(tallies).toHaveLength(1);
    expect(tallies[0]).toMatchObject({ _id: 'minute', requests: 40, first: expect.stringMatching(/^[ab]$/) });
  });

  it('a write on one node is announced to the other with the collection it changed', async () => {
    const heard: string[] = [];
    const unsubscribe = nodeB.changes.subscribe((collection) => heard.push(collection));
    await nodeB.listening();
    await nodeA.collection('rules').insertOne({ _id: 'r1' });
    await nodeA.batch([{ op: 'update', collection: 'rules', filter: { _id: 'r1' }, update: { $set: { n: 1 } } }]);
    await vi.waitFor(() => expect(heard.filter((c) => c === 'rules')).toHaveLength(2), { timeout: 5000 });
    // A write that changes nothing announces nothing.
    await nodeA.collection('rules').updateOne({ _id: 'r1' }, { $set: { n: 1 } });
    await nodeA.collection('other').insertOne({ _id: 'o1' });
    await vi.waitFor(() => expect(heard).toContain('other'), { timeout: 5000 });
    expect(heard.filter((c) => c === 'rules')).toHaveLength(2);
    unsubscribe();
  });

  it('a field index answers equality queries through arrays of sub-documents', async () => {
    const things = nodeA.collection('things');
    await things.createIndex({ keys: { 'list.k': 1 } });
    await things.insertMany([
      { _id: 'a', list: [{ k: 'p' }, { k: ['q', 'r'] }] },
      { _id: 'b', list: { k: 'q' } },
      { _id: 'c', list: [] },
    ]);
    expect((await nodeB.collection('things').find({ 'list.k': 'q' }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['a', 'b']);
    expect(await nodeB.collection('things').count({ 'list.k': { $in: ['p', 'zz'] } })).toBe(1);
    // The database uses the index for the clause the store sends (sequential scans off: the table is tiny).
    const where = prefilter({ 'list.k': 'q' });
    const client = await nodeA.pool.connect();
    let rows: { 'QUERY PLAN': string }[];
    try {
      await client.query('SET enable_seqscan = off');
      rows = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT doc FROM c_things WHERE ${where.sql}`, where.params)).rows;
      await client.query('RESET enable_seqscan');
    } finally {
      client.release();
    }
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan/);
  });

  it('a lost LISTEN connection is made again, and listeners are told that anything may have changed', async () => {
    const heard: string[] = [];
    nodeB.changes.subscribe((collection) => heard.push(collection));
    await nodeB.listening();
    const listeners = async (): Promise<number[]> =>
      (
        await nodeA.pool.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()",
        )
      ).rows.map((row) => row.pid);
    const [first] = await listeners();
    expect(first).toBeDefined();
    heard.length = 0;
    await nodeA.pool.query('SELECT pg_terminate_backend($1)', [first]);
    await vi.waitFor(() => expect(heard).toContain(''), { timeout: 10_000 });
    await nodeA.collection('rules').insertOne({ _id: 'after-reconnect' });
    await vi.waitFor(() => expect(heard).toContain('rules'), { timeout: 10_000 });
  });
});
