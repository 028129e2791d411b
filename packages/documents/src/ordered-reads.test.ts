import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { Doc, Filter, SortSpec } from '@vigie/kernel';
import { createMemoryStore } from './memory.js';
import { compileMatcher } from './query-plan.js';

/** A small deterministic generator: the same documents on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

/** What mingo (MongoDB's semantics) answers: the reference every engine shortcut must agree with. */
function reference(docs: readonly Doc[], filter: Filter, sort?: SortSpec, skip = 0, limit?: number): string[] {
  let cursor = new Query(filter).find<Doc>(docs as Doc[]);
  if (sort) cursor = cursor.sort(sort);
  const ids = cursor.all().map((doc) => doc._id);
  return ids.slice(skip, limit === undefined ? undefined : skip + limit);
}

describe('compileMatcher on the list’s conditions ($or of $regex and $in, with equalities)', () => {
  const docs: Doc[] = [
    { _id: 'a', d: 'res/host-12', v: { output: 'Disk FULL', resolved: null } },
    { _id: 'b', d: 'res/host-3', v: { output: 'ok', component: 'HOST-12', resolved: 5 } },
    { _id: 'c', d: ['res/host-12', 'x'], v: [{ output: 'disk' }] },
    { _id: 'd', v: { output: 7, component: null } },
    { _id: 'e', d: 'other', v: { output: { text: 'disk' } } },
    { _id: 'f', d: 'res/host-4', v: 3 },
  ];
  const filters: Filter[] = [
    { $or: [{ d: { $regex: 'host-12', $options: 'i' } }, { 'v.component': { $regex: 'host-12', $options: 'i' } }] },
    { 'v.resolved': null, $or: [{ 'v.output': { $regex: 'disk', $options: 'i' } }, { d: { $in: ['res/host-4', 'other'] } }] },
    { 'v.output': { $regex: '^disk' } },
    { 'v.component': { $in: [null, 'HOST-12'] } },
    { $and: [{ d: { $regex: 'host' } }, { 'v.resolved': { $in: [5] } }] },
    { d: { $in: ['x'] } },
    { 'v.output': { $regex: 'd.s', $options: 's' } },
  ];
  it('agrees with mingo through arrays, scalars and objects on the way', () => {
    for (const filter of filters) {
      const query = new Query(filter);
      expect(docs.filter(compileMatcher(filter)).map((doc) => doc._id), JSON.stringify(filter)).toEqual(docs.filter((doc) => query.test(doc)).map((doc) => doc._id));
    }
  });
});

describe('pages read in index order, counts from indexes, a count’s matches reused by its page', () => {
  const random = generator(5);
  const makeDoc = (i: number): Doc => ({
    _id: `a${String(i).padStart(4, '0')}`,
    t: Math.floor(random() * 300),
    v: {
      state: { val: Math.floor(random() * 4) },
      ...(random() < 0.2 ? { resolved: Math.floor(random() * 100) } : {}),
      ...(random() < 0.1 ? { last: null } : random() < 0.9 ? { last: Math.floor(random() * 50) } : {}),
      output: `Disk ${Math.floor(random() * 40)}%`,
    },
  });
  const filters: Filter[] = [
    {},
    { 'v.resolved': null },
    { 'v.resolved': null, 'v.state.val': 3 },
    { 'v.state.val': { $in: [1, 2] } },
    { 'v.resolved': null, $or: [{ 'v.output': { $regex: 'disk 1', $options: 'i' } }, { _id: { $in: ['a0001', 'a0002'] } }] },
    { 'v.output': 'Disk 7%' },
  ];
  const sorts: SortSpec[] = [{ t: -1, _id: -1 }, { 'v.last': 1, _id: 1 }, { 'v.state.val': -1, t: 1, _id: -1 }, { t: 1 }];
  const pages: [skip: number, limit: number][] = [
    [0, 5],
    [0, 50],
    [120, 30],
    [0, 2000],
  ];

  it('answers as mingo after inserts, updates of the sorted and filtered fields, and deletes', async () => {
    // The same documents without indexes: every read is a scan and a sort, the engine's order before these shortcuts
    // (which is mingo's but for null before a missing value).
    const collection = createMemoryStore().collection('alarms');
    const unindexed = createMemoryStore().collection('alarms');
    for (const field of ['v.resolved', 't', 'v.state.val', 'v.last']) await collection.createIndex({ keys: { [field]: 1 } });
    const both = async (write: (c: typeof collection) => Promise<unknown>) => {
      await write(collection);
      await write(unindexed);
    };
    const initial = Array.from({ length: 1500 }, (_, i) => makeDoc(i));
    await both((c) => c.insertMany(initial));
    const check = async (round: string) => {
      const docs = await collection.find();
      for (const filter of filters) {
        expect(await collection.count(filter), `${round} count ${JSON.stringify(filter)}`).toBe(reference(docs, filter).length);
        for (const sort of sorts) {
          for (const [skip, limit] of pages) {
            const found = await collection.find(filter, { sort, skip, limit });
            const page = found.map((doc) => doc._id);
            const scannedDocs = await unindexed.find(filter, { sort, skip, limit });
            const scanned = scannedDocs.map((doc) => doc._id);
            // Ties on every sort key have no order MongoDB promises: only the sort values are compared when the sort does not end on _id.
            if ('_id' in sort) expect(page, `${round} ${JSON.stringify({ filter, sort, skip, limit })}`).toEqual(scanned);
            else expect(found.map((doc) => doc.t)).toEqual(scannedDocs.map((doc) => doc.t));
            // Where no null meets a missing value, that is mingo's order too.
            if ('_id' in sort && !('v.last' in sort)) expect(page).toEqual(reference(docs, filter, sort, skip, limit));
          }
        }
      }
    };
    await check('as inserted');
    // The sorted and filtered fields change (new keys, emptied keys), then the same reads again: the kept key order follows.
    for (let i = 0; i < 300; i++) {
      const id = `a${String(Math.floor(random() * 1500)).padStart(4, '0')}`;
      const update = { $set: { t: 300 + i, 'v.last': Math.floor(random() * 80), 'v.state.val': Math.floor(random() * 4) } };
      await both((c) => c.updateOne({ _id: id }, update));
    }
    await both((c) => c.deleteMany({ t: { $lt: 20 } }));
    const added = Array.from({ length: 100 }, (_, i) => makeDoc(2000 + i));
    await both((c) => c.insertMany(added));
    await check('after writes');
  });

  it('does not reuse a count’s matches once a document changed', async () => {
    const store = createMemoryStore();
    const collection = store.collection('alarms');
    await collection.insertMany([
      { _id: 'x', v: { output: 'disk' } },
      { _id: 'y', v: { output: 'cpu' } },
    ]);
    const filter = { $or: [{ 'v.output': { $regex: 'DISK', $options: 'i' } }] };
    expect(await collection.count(filter)).toBe(1);
    await collection.updateOne({ _id: 'y' }, { $set: { 'v.output': 'disk too' } });
    expect((await collection.find(filter, { sort: { _id: 1 } })).map((doc) => doc._id)).toEqual(['x', 'y']);
  });
});

describe('a page read in index order, or selected after a pass over the collection, is the start of the whole sorted list', () => {
  it('agrees with mingo for generated documents, with ties, missing values and mixed types, large index keys included', async () => {
    const random = generator(11);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    // Few distinct values per key, so that most documents tie on the first keys; some missing, some of other types. A
    // fourth of the documents miss the indexed field: a walk in index order gives up before that key. (No null: the
    // engine orders null before a missing value, mingo does not.)
    const value = (): unknown => pick([1, 2, 2, 3, 'a', 'b', undefined, undefined, undefined, true, 2.5]);
    const docs: Doc[] = Array.from({ length: 3000 }, (_, i) => {
      const doc: Record<string, unknown> = { _id: `d${String(Math.floor(random() * 1e6)).padStart(6, '0')}-${i}` };
      for (const [field, v] of [['a', value()], ['b', value()], ['c', value()]] as const) if (v !== undefined) doc[field] = v;
      const nested = value();
      doc.v = nested === undefined ? {} : { s: { val: nested } };
      return doc as Doc;
    });
    const collection = createMemoryStore().collection('docs');
    for (const field of ['a', 'v.s.val']) await collection.createIndex({ keys: { [field]: 1 } });
    await collection.insertMany(docs);
    const keys = ['a', 'b', 'c', 'v.s.val'];
    for (let round = 0; round < 80; round++) {
      const sort: SortSpec = {};
      const count = 1 + Math.floor(random() * 3);
      for (let k = 0; k < count; k++) sort[pick(keys)] = random() < 0.5 ? 1 : -1;
      sort._id = pick([1, -1] as const);
      const filter: Filter = pick([{}, { b: { $in: [1, 2, 'a'] } }, { c: { $ne: 3 } }]);
      const skip = pick([0, 0, 7, 40]);
      const limit = pick([1, 5, 50, 120]);
      const page = (await collection.find(filter, { sort, skip, limit })).map((doc) => doc._id);
      expect(page, JSON.stringify({ sort, filter, skip, limit })).toEqual(reference(docs, filter, sort, skip, limit));
    }
  });
});
