import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@vigie/kernel';
import { describeJobStoreConformance, describeStoreConformance } from '@vigie/kernel-testing';
import { sqliteStoreFactory } from './factory.js';
import { SqliteStore } from './sqlite-store.js';

describeStoreConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigie-sqlite-'));
  return { store: new SqliteStore(join(dir, 'store.sqlite')), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});

describeJobStoreConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigie-sqlite-'));
  const adapter = await sqliteStoreFactory()({ config: {}, dataDir: dir, logger: createLogger({ level: 'silent' }) });
  return {
    jobs: adapter.jobs,
    cleanup: async () => {
      await adapter.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('sqlite store durability', () => {
  it('reopens with every document (any text in it), index and collection, in insertion order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-sqlite-'));
    const path = join(dir, 'store.sqlite');
    try {
      const first = new SqliteStore(path);
      const things = first.collection('things');
      await things.createIndex({ keys: { code: 1 }, unique: true, name: 'code_unique' });
      await things.insertMany([
        { _id: 'z', code: 'A', nested: { list: [1, 2] } },
        { _id: 'a', code: 'B', text: 'é ✓ 𝄞 \ud800 "quoted"' },
      ]);
      await things.updateOne({ _id: 'z' }, { $push: { 'nested.list': 3 } });
      await first.collection('empty').createIndex({ keys: { k: 1 } });
      await first.collection('gone').insertOne({ _id: 'x' });
      await first.dropCollection('gone');
      await first.close();

      const second = new SqliteStore(path);
      expect(await second.collection('things').find({})).toEqual([
        { _id: 'z', code: 'A', nested: { list: [1, 2, 3] } },
        { _id: 'a', code: 'B', text: 'é ✓ 𝄞 \ud800 "quoted"' },
      ]);
      expect(await second.listCollections()).toEqual(['empty', 'things']);
      await expect(second.collection('things').insertOne({ _id: 'c', code: 'A' })).rejects.toMatchObject({ code: 'DUPLICATE_KEY' });
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes a commit larger than one buffer after the commits made before it, and reopens with it in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-sqlite-'));
    const path = join(dir, 'store.sqlite');
    try {
      const first = new SqliteStore(path);
      const things = first.collection('things');
      await things.insertMany([{ _id: 'a', v: 0 }, { _id: 'gone' }]);
      // About 3 MB of documents: their texts go to the writer thread in several buffers, the first holding `a`.
      const many = Array.from({ length: 3000 }, (_, i) => ({ _id: `d${i}`, text: `${i} ${'x'.repeat(1000)}` }));
      // Both committed in memory in this turn, the small one first: the disk must end as memory did.
      const small = things.updateOne({ _id: 'a' }, { $set: { v: 1 } });
      const large = first.batch([
        { op: 'replace', collection: 'things', filter: { _id: 'a' }, doc: { _id: 'a', v: 2 } },
        { op: 'delete', collection: 'things', filter: { _id: 'gone' } },
        ...many.map((doc) => ({ op: 'insert' as const, collection: 'things', doc })),
      ]);
      await Promise.all([small, large]);
      await first.close();

      const second = new SqliteStore(path);
      expect(await second.collection('things').find({})).toEqual([{ _id: 'a', v: 2 }, ...many]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds a few buffers of a commit the writer thread cannot keep up with, and writes it whole, after what came before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-sqlite-'));
    const path = join(dir, 'store.sqlite');
    try {
      const first = new SqliteStore(path);
      const things = first.collection('things');
      await things.insertOne({ _id: 'before' });
      // 250 MiB of texts from documents sharing one string: the main thread makes them faster than the thread writes
      // rows, and the documents themselves cost next to nothing.
      const text = 'x'.repeat(256 * 1024);
      const many = Array.from({ length: 1000 }, (_, i) => ({ _id: `d${i}`, text }));
      const residentBefore = process.memoryUsage().rss;
      const large = first.batch(many.map((doc) => ({ op: 'insert' as const, collection: 'things', doc })));
      // The commit ran in the call: the memory it grew by is the texts still on their way to the disk.
      const grown = process.memoryUsage().rss - residentBefore;
      const after = things.insertOne({ _id: 'after' });
      await Promise.all([large, after]);
      expect(grown).toBeLessThan(64 * 1024 ** 2);
      await first.close();

      const second = new SqliteStore(path);
      expect(await second.collection('things').find({})).toEqual([{ _id: 'before' }, ...many, { _id: 'after' }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a second process-level opener of the same file while the first holds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-sqlite-'));
    const path = join(dir, 'store.sqlite');
    try {
      const first = new SqliteStore(path);
      await first.collection('x').insertOne({ _id: '1' });
      expect(() => new SqliteStore(path)).toThrow(/in use by another Vigie process/);
      await first.close();
      const again = new SqliteStore(path);
      expect(await again.collection('x').count()).toBe(1);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
