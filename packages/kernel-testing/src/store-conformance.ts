import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes, hasCode, type Doc, type Store } from '@vigie/kernel';

export interface OpenedStore {
  store: Store;
  /** Called after each case (after `store.close()`): remove files, drop databases. */
  cleanup?: () => Promise<void>;
}

export interface StoreConformanceOptions {
  /** Cases this adapter cannot pass, by name, each with the reason printed in the test name. */
  skip?: Readonly<Record<string, string>>;
}

async function rejectsWithCode(work: Promise<unknown>, code: string): Promise<void> {
  let caught: unknown;
  try {
    await work;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected an error with code ${code}`).toBeDefined();
  expect(hasCode(caught, code), `expected code ${code}, got ${String((caught as { code?: unknown })?.code)}: ${String(caught)}`).toBe(true);
}

interface Item extends Doc {
  n?: number;
  tag?: string;
  tags?: string[];
  nested?: { a?: number; b?: string };
  list?: { k: string; v: number }[];
}

const items: Item[] = [
  { _id: 'a', n: 1, tag: 'red', tags: ['x', 'y'], nested: { a: 1, b: 'one' }, list: [{ k: 'p', v: 1 }] },
  { _id: 'b', n: 2, tag: 'blue', tags: ['y'], nested: { a: 2, b: 'two' }, list: [{ k: 'q', v: 2 }] },
  { _id: 'c', n: 3, tag: 'red', tags: [], nested: { a: 3, b: 'three' }, list: [] },
  { _id: 'd', n: 4, tag: 'green', nested: { a: 4 } },
];

type Case = [name: string, body: (store: Store) => Promise<void>];

/** The behaviour every store adapter must have; adapter packages run it against their own store. */
export const storeConformanceCases: readonly Case[] = [
  [
    'insertOne then findOne by _id returns an equal document',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne(items[0] as Item);
      expect(await c.findOne({ _id: 'a' })).toEqual(items[0]);
      expect(await c.findOne({ _id: 'missing' })).toBeNull();
    },
  ],
  [
    'insertOne rejects a duplicate _id with DUPLICATE_KEY',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne({ _id: 'x', n: 1 });
      await rejectsWithCode(c.insertOne({ _id: 'x', n: 2 }), ErrorCodes.DuplicateKey);
      expect(await c.findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 1 });
    },
  ],
  [
    'insertMany is all or nothing',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne({ _id: 'b', n: 0 });
      await rejectsWithCode(c.insertMany([{ _id: 'a', n: 1 }, { _id: 'b', n: 2 }]), ErrorCodes.DuplicateKey);
      expect(await c.count()).toBe(1);
      await c.insertMany([{ _id: 'c' }, { _id: 'd' }]);
      expect(await c.count()).toBe(3);
    },
  ],
  [
    'find with comparison, set and logical operators',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertMany(items);
      const ids = async (filter: Record<string, unknown>): Promise<string[]> => (await c.find(filter, { sort: { _id: 1 } })).map((d) => d._id);
      expect(await ids({ n: { $gt: 1, $lte: 3 } })).toEqual(['b', 'c']);
      expect(await ids({ tag: { $in: ['red', 'green'] } })).toEqual(['a', 'c', 'd']);
      expect(await ids({ tag: { $nin: ['red'] } })).toEqual(['b', 'd']);
      expect(await ids({ tag: { $ne: 'red' } })).toEqual(['b', 'd']);
      expect(await ids({ $or: [{ n: 1 }, { tag: 'blue' }] })).toEqual(['a', 'b']);
      expect(await ids({ $and: [{ tag: 'red' }, { n: { $gte: 2 } }] })).toEqual(['c']);
      expect(await ids({ $nor: [{ tag: 'red' }, { n: 4 }] })).toEqual(['b']);
      expect(await ids({ n: { $not: { $gt: 2 } } })).toEqual(['a', 'b']);
    },
  ],
  [
    'find on dotted paths, arrays and existence',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertMany(items);
      const ids = async (filter: Record<string, unknown>): Promise<string[]> => (await c.find(filter, { sort: { _id: 1 } })).map((d) => d._id);
      expect(await ids({ 'nested.b': 'two' })).toEqual(['b']);
      expect(await ids({ 'nested.b': { $exists: false } })).toEqual(['d']);
      expect(await ids({ tags: 'y' })).toEqual(['a', 'b']);
      expect(await ids({ tags: { $all: ['x', 'y'] } })).toEqual(['a']);
      expect(await ids({ tags: { $size: 0 } })).toEqual(['c']);
      expect(await ids({ list: { $elemMatch: { k: 'q', v: { $gte: 2 } } } })).toEqual(['b']);
      expect(await ids({ 'list.k': 'p' })).toEqual(['a']);
      expect(await ids({ tags: { $exists: true } })).toEqual(['a', 'b', 'c']);
      // A branch on a value beside one on existence (the alarms beat's query of closed, cancelled or done alarms).
      expect(await ids({ $or: [{ n: 1 }, { tags: { $exists: false } }] })).toEqual(['a', 'd']);
      expect(await ids({ tag: 'red', $or: [{ 'nested.a': { $in: [3, 4] } }, { 'nested.b': { $exists: false } }] })).toEqual(['c']);
    },
  ],
  [
    'secondary indexes change no answer, including inside batches',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertMany(items);
      await c.insertOne({ _id: 'e', tag: null as unknown as string, tags: ['x', 'red'] });
      const queries: Record<string, unknown>[] = [
        { tag: 'red' },
        { tag: { $in: ['red', 'blue', 'nope'] } },
        { tag: { $eq: 'green' } },
        { tag: null },
        { tags: 'x' },
        { tags: ['x', 'y'] },
        { 'list.k': 'q' },
        { 'nested.a': { $in: [1, 4] } },
        { tag: 'red', n: { $gt: 1 } },
        { tag: 'red', tags: 'x' },
      ];
      const before = [];
      for (const q of queries) before.push((await c.find(q, { sort: { _id: 1 } })).map((d) => d._id));
      for (const field of ['tag', 'tags', 'list.k', 'nested.a', 'n']) await c.createIndex({ keys: { [field]: 1 } });
      for (const [i, q] of queries.entries()) {
        expect((await c.find(q, { sort: { _id: 1 } })).map((d) => d._id), JSON.stringify(q)).toEqual(before[i]);
        expect(await c.count(q), JSON.stringify(q)).toBe(before[i]?.length);
      }
      await c.updateOne({ _id: 'a' }, { $set: { tag: 'blue' } });
      expect((await c.find({ tag: 'red' })).map((d) => d._id)).toEqual(['c']);
      await store.batch([
        { op: 'update', collection: 'things', filter: { tag: 'blue' }, update: { $set: { tag: 'teal' } }, multi: true },
        { op: 'delete', collection: 'things', filter: { tag: 'teal', n: 2 } },
      ]);
      expect((await c.find({ tag: 'teal' })).map((d) => d._id)).toEqual(['a']);
      expect(await c.count({ tag: 'blue' })).toBe(0);
      // Updates that leave the indexed values as they were, then change a nested one.
      await c.updateOne({ _id: 'a' }, { $set: { tag: 'teal', other: 1 } });
      expect((await c.find({ tag: 'teal' })).map((d) => d._id)).toEqual(['a']);
      await c.updateOne({ _id: 'a' }, { $set: { 'nested.a': 9 } });
      expect((await c.find({ 'nested.a': 9 })).map((d) => d._id)).toEqual(['a']);
      await c.updateOne({ _id: 'a' }, { $unset: { 'nested.a': '' } });
      expect(await c.count({ 'nested.a': 9 })).toBe(0);
      expect((await c.find({ 'nested.a': null, tag: 'teal' })).map((d) => d._id)).toEqual(['a']);
    },
  ],
  [
    'find with $regex and options',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertMany(items);
      const ids = async (filter: Record<string, unknown>): Promise<string[]> => (await c.find(filter, { sort: { _id: 1 } })).map((d) => d._id);
      expect(await ids({ tag: { $regex: '^r' } })).toEqual(['a', 'c']);
      expect(await ids({ tag: { $regex: 'EE', $options: 'i' } })).toEqual(['d']);
      expect(await ids({ 'nested.b': { $regex: 'o$' } })).toEqual(['b']);
    },
  ],
  [
    'find with null matches null and missing fields',
    async (store) => {
      const c = store.collection('things');
      await c.insertMany([
        { _id: 'a', v: null },
        { _id: 'b' },
        { _id: 'c', v: 1 },
      ]);
      expect((await c.find({ v: null }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['a', 'b']);
      expect((await c.find({ v: { $ne: null } })).map((d) => d._id)).toEqual(['c']);
    },
  ],
  [
    'sort, skip and limit',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertMany(items);
      expect((await c.find({}, { sort: { n: -1 } })).map((d) => d._id)).toEqual(['d', 'c', 'b', 'a']);
      expect((await c.find({}, { sort: { tag: 1, n: -1 } })).map((d) => d._id)).toEqual(['b', 'd', 'c', 'a']);
      expect((await c.find({}, { sort: { n: 1 }, skip: 1, limit: 2 })).map((d) => d._id)).toEqual(['b', 'c']);
      expect((await c.find({}, { sort: { n: 1 }, skip: 10 })).length).toBe(0);
    },
  ],
  [
    'projection includes or excludes fields',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne(items[0] as Item);
      expect(await c.findOne({ _id: 'a' }, { projection: { tag: 1 } })).toEqual({ _id: 'a', tag: 'red' });
      expect(await c.findOne({ _id: 'a' }, { projection: { tag: 1, 'nested.b': 1 } })).toEqual({ _id: 'a', tag: 'red', nested: { b: 'one' } });
      const excluded = await c.findOne({ _id: 'a' }, { projection: { list: 0, tags: 0 } });
      expect(excluded).toEqual({ _id: 'a', n: 1, tag: 'red', nested: { a: 1, b: 'one' } });
    },
  ],
  [
    'count with and without a filter',
    async (store) => {
      const c = store.collection<Item>('things');
      expect(await c.count()).toBe(0);
      await c.insertMany(items);
      expect(await c.count()).toBe(4);
      expect(await c.count({ tag: 'red' })).toBe(2);
      expect(await c.count({ _id: 'zzz' })).toBe(0);
    },
  ],
  [
    'replaceOne replaces the whole document and keeps _id',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne(items[0] as Item);
      const r = await c.replaceOne({ _id: 'a' }, { _id: 'a', tag: 'new' });
      expect(r).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
      expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', tag: 'new' });
      expect(await c.replaceOne({ _id: 'nope' }, { _id: 'nope', tag: 'x' })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: null });
      expect(await c.count()).toBe(1);
    },
  ],
  [
    'replaceOne with upsert inserts a missing document',
    async (store) => {
      const c = store.collection<Item>('things');
      const r = await c.replaceOne({ _id: 'z' }, { _id: 'z', n: 9 }, { upsert: true });
      expect(r.upsertedId).toBe('z');
      expect(await c.findOne({ _id: 'z' })).toEqual({ _id: 'z', n: 9 });
    },
  ],
  [
    'updateOne with $set, $unset and $inc',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne({ _id: 'a', n: 1, tag: 'red', nested: { a: 1 } });
      const r = await c.updateOne({ _id: 'a' }, { $set: { tag: 'blue', 'nested.b': 'x' }, $unset: { n: '' }, $inc: { 'nested.a': 2 } });
      expect(r).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
      expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', tag: 'blue', nested: { a: 3, b: 'x' } });
    },
  ],
  [
    'update with $push',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne({ _id: 'a', tags: ['x'] });
      await c.updateOne({ _id: 'a' }, { $push: { tags: 'y' } });
      await c.updateOne({ _id: 'a' }, { $push: { tags: { $each: ['z', 'x'] } } });
      expect((await c.findOne({ _id: 'a' }))?.tags).toEqual(['x', 'y', 'z', 'x']);
    },
  ],
  [
    'update with $pull',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne({ _id: 'a', tags: ['x', 'y', 'x', 'z'] });
      await c.updateOne({ _id: 'a' }, { $pull: { tags: 'x' } });
      expect((await c.findOne({ _id: 'a' }))?.tags).toEqual(['y', 'z']);
      await c.updateOne({ _id: 'a' }, { $pull: { tags: { $in: ['y', 'q'] } } });
      expect((await c.findOne({ _id: 'a' }))?.tags).toEqual(['z']);
    },
  ],
  [
    'update with $addToSet',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertOne({ _id: 'a', tags: ['x'] });
      await c.updateOne({ _id: 'a' }, { $addToSet: { tags: 'x' } });
      await c.updateOne({ _id: 'a' }, { $addToSet: { tags: { $each: ['y', 'x', 'z'] } } });
      expect((await c.findOne({ _id: 'a' }))?.tags).toEqual(['x', 'y', 'z']);
    },
  ],
  [
    'update of a long list with $addToSet reports unchanged documents and leaves earlier reads as they were',
    async (store) => {
      const c = store.collection<Item>('things');
      const ids = Array.from({ length: 500 }, (_, i) => `r${i}`);
      await c.insertOne({ _id: 'a', tags: ids, nested: { a: 1 } });
      const before = await c.findOne({ _id: 'a' });
      expect(await c.updateOne({ _id: 'a' }, { $addToSet: { tags: { $each: ['r3', 'r499'] } } })).toEqual({ matchedCount: 1, modifiedCount: 0, upsertedId: null });
      expect(await c.updateOne({ _id: 'a' }, { $addToSet: { tags: { $each: ['r500', 'r3', 'r500'] } } })).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
      const after = await c.findOne({ _id: 'a' });
      expect(after?.tags).toEqual([...ids, 'r500']);
      expect(after?.nested).toEqual({ a: 1 });
      expect(before?.tags).toHaveLength(500);
      await c.updateOne({ _id: 'a' }, { $addToSet: { fresh: 'x' } });
      expect((await c.findOne({ _id: 'a' }))?.fresh).toEqual(['x']);
    },
  ],
  [
    'update with $set of an equal value, $inc of a missing field and $unset of a missing path',
    async (store) => {
      const c = store.collection('things');
      await c.insertOne({ _id: 'a', n: 1, nested: { a: 1, b: 'x' } });
      expect(await c.updateOne({ _id: 'a' }, { $set: { n: 1, 'nested.b': 'x' } })).toEqual({ matchedCount: 1, modifiedCount: 0, upsertedId: null });
      expect(await c.updateOne({ _id: 'a' }, { $unset: { 'missing.deep': '' } })).toEqual({ matchedCount: 1, modifiedCount: 0, upsertedId: null });
      expect(await c.updateOne({ _id: 'a' }, { $inc: { count: 2 }, $set: { 'made.here': true } })).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
      expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1, nested: { a: 1, b: 'x' }, count: 2, made: { here: true } });
      await c.updateOne({ _id: 'a' }, { $unset: { 'nested.a': '' } });
      expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1, nested: { b: 'x' }, count: 2, made: { here: true } });
    },
  ],
  [
    'update with $min, $max and $pullAll',
    async (store) => {
      const c = store.collection('things');
      await c.insertOne({ _id: 'a', low: 5, high: 5, tags: ['x', 'y', 'z', 'x'] });
      await c.updateOne({ _id: 'a' }, { $min: { low: 3 }, $max: { high: 9 }, $pullAll: { tags: ['x', 'z'] } });
      await c.updateOne({ _id: 'a' }, { $min: { low: 4 }, $max: { high: 7 } });
      expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', low: 3, high: 9, tags: ['y'] });
    },
  ],
  [
    'an upsert without _id in its filter stores a string _id',
    async (store) => {
      const c = store.collection('things');
      const r = await c.updateOne({ code: 'k' }, { $set: { n: 1 } }, { upsert: true });
      expect(typeof r.upsertedId).toBe('string');
      const doc = await c.findOne({ code: 'k' });
      expect(doc?._id).toBe(r.upsertedId);
    },
  ],
  [
    'updateOne with upsert seeds from the filter and applies $setOnInsert only on insert',
    async (store) => {
      const c = store.collection('things');
      const first = await c.updateOne({ _id: 'u', kind: 'k' }, { $set: { n: 1 }, $setOnInsert: { created: 10 } }, { upsert: true });
      expect(first.upsertedId).toBe('u');
      expect(await c.findOne({ _id: 'u' })).toEqual({ _id: 'u', kind: 'k', n: 1, created: 10 });
      const second = await c.updateOne({ _id: 'u' }, { $set: { n: 2 }, $setOnInsert: { created: 20 } }, { upsert: true });
      expect(second).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
      expect(await c.findOne({ _id: 'u' })).toEqual({ _id: 'u', kind: 'k', n: 2, created: 10 });
    },
  ],
  [
    'updateMany reports matched and modified counts; an update that changes nothing is not a modification',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertMany(items);
      const r = await c.updateMany({ tag: 'red' }, { $set: { tag: 'pink' } });
      expect(r).toEqual({ matchedCount: 2, modifiedCount: 2, upsertedId: null });
      expect(await c.count({ tag: 'pink' })).toBe(2);
      const again = await c.updateMany({ tag: 'pink' }, { $set: { tag: 'pink' } });
      expect(again).toEqual({ matchedCount: 2, modifiedCount: 0, upsertedId: null });
      expect(await c.updateMany({ tag: 'none' }, { $set: { n: 0 } })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: null });
    },
  ],
  [
    'findOneAndUpdate returns the document before or after, in sort order',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertMany(items);
      const after = await c.findOneAndUpdate({ tag: 'red' }, { $inc: { n: 10 } }, { sort: { n: -1 } });
      expect(after?._id).toBe('c');
      expect(after?.n).toBe(13);
      const before = await c.findOneAndUpdate({ tag: 'red' }, { $inc: { n: 10 } }, { sort: { n: 1 }, returnDocument: 'before' });
      expect(before?._id).toBe('a');
      expect(before?.n).toBe(1);
      expect((await c.findOne({ _id: 'a' }))?.n).toBe(11);
      expect(await c.findOneAndUpdate({ tag: 'none' }, { $set: { n: 0 } })).toBeNull();
      const upserted = await c.findOneAndUpdate({ _id: 'new' }, { $set: { n: 5 } }, { upsert: true });
      expect(upserted).toEqual({ _id: 'new', n: 5 });
    },
  ],
  [
    'deleteOne and deleteMany report counts',
    async (store) => {
      const c = store.collection<Item>('things');
      await c.insertMany(items);
      expect(await c.deleteOne({ tag: 'red' })).toEqual({ deletedCount: 1 });
      expect(await c.deleteMany({ tag: { $in: ['red', 'blue'] } })).toEqual({ deletedCount: 2 });
      expect(await c.deleteOne({ _id: 'missing' })).toEqual({ deletedCount: 0 });
      expect(await c.count()).toBe(1);
    },
  ],
  [
    'a unique index rejects duplicates and createIndex is idempotent',
    async (store) => {
      const c = store.collection('things');
      await c.createIndex({ keys: { code: 1 }, unique: true, name: 'code_unique' });
      await c.createIndex({ keys: { code: 1 }, unique: true, name: 'code_unique' });
      await c.insertOne({ _id: '1', code: 'A' });
      await rejectsWithCode(c.insertOne({ _id: '2', code: 'A' }), ErrorCodes.DuplicateKey);
      await c.insertOne({ _id: '3', code: 'B' });
      await rejectsWithCode(c.updateOne({ _id: '3' }, { $set: { code: 'A' } }), ErrorCodes.DuplicateKey);
      await c.updateOne({ _id: '1' }, { $set: { code: 'C' } });
      await c.insertOne({ _id: '4', code: 'A' });
      expect(await c.count()).toBe(3);
    },
  ],
  [
    'creating a unique index over duplicates fails',
    async (store) => {
      const c = store.collection('things');
      await c.insertMany([
        { _id: '1', code: 'A' },
        { _id: '2', code: 'A' },
      ]);
      let failed = false;
      try {
        await c.createIndex({ keys: { code: 1 }, unique: true, name: 'code_unique' });
      } catch {
        failed = true;
      }
      expect(failed).toBe(true);
    },
  ],
  [
    'batch applies every operation in order, each seeing the previous ones',
    async (store) => {
      await store.collection('left').insertOne({ _id: 'l1', n: 1 });
      const result = await store.batch([
        { op: 'insert', collection: 'left', doc: { _id: 'l2', n: 2 } },
        { op: 'update', collection: 'left', filter: { n: { $gte: 1 } }, update: { $inc: { n: 10 } }, multi: true },
        { op: 'replace', collection: 'right', filter: { _id: 'r1' }, doc: { _id: 'r1', v: 'x' }, upsert: true },
        { op: 'delete', collection: 'left', filter: { n: 11 } },
      ]);
      expect(result).toEqual({ inserted: 1, matched: 2, modified: 2, upserted: 1, deleted: 1 });
      expect(await store.collection('left').find({})).toEqual([{ _id: 'l2', n: 12 }]);
      expect(await store.collection('right').find({})).toEqual([{ _id: 'r1', v: 'x' }]);
    },
  ],
  [
    'batch writes documents handed over as it writes others, and what is read back is a copy',
    async (store) => {
      await store.collection('left').insertOne({ _id: 'l1', n: 1 });
      const inserted = { _id: 'l2', n: 2, list: [1, { a: 'x' }], dropped: undefined };
      const replacement = { _id: 'l1', n: 3, nested: { b: true } };
      const result = await store.batch([
        { op: 'insert', collection: 'left', doc: inserted, handOver: true },
        { op: 'replace', collection: 'left', filter: { _id: 'l1' }, doc: replacement, handOver: true },
        { op: 'replace', collection: 'left', filter: { _id: 'l3' }, doc: { _id: 'l3' }, upsert: true, handOver: true },
      ]);
      expect(result).toEqual({ inserted: 1, matched: 1, modified: 1, upserted: 1, deleted: 0 });
      const read = await store.collection('left').find({}, { sort: { _id: 1 } });
      expect(read).toEqual([{ _id: 'l1', n: 3, nested: { b: true } }, { _id: 'l2', n: 2, list: [1, { a: 'x' }] }, { _id: 'l3' }]);
      (read.find((doc) => doc._id === 'l2')?.list as unknown[]).push(2);
      expect(await store.collection('left').findOne({ _id: 'l2' })).toEqual({ _id: 'l2', n: 2, list: [1, { a: 'x' }] });
    },
  ],
  [
    'batch is all or nothing when an operation fails',
    async (store) => {
      await store.collection('left').insertOne({ _id: 'l1', n: 1 });
      await rejectsWithCode(
        store.batch([
          { op: 'update', collection: 'left', filter: { _id: 'l1' }, update: { $set: { n: 2 } } },
          { op: 'insert', collection: 'right', doc: { _id: 'r1' } },
          { op: 'insert', collection: 'left', doc: { _id: 'l1' } },
        ]),
        ErrorCodes.DuplicateKey,
      );
      expect(await store.collection('left').find({})).toEqual([{ _id: 'l1', n: 1 }]);
      expect(await store.collection('right').count()).toBe(0);
    },
  ],
  [
    'filters that execute code are refused',
    async (store) => {
      const c = store.collection('things');
      await c.insertOne({ _id: 'a' });
      await rejectsWithCode(c.find({ $where: 'true' }), ErrorCodes.UnsafeFilter);
      await rejectsWithCode(c.find({ $expr: { $eq: [1, 1] } }), ErrorCodes.UnsafeFilter);
      await rejectsWithCode(c.deleteMany({ $where: 'true' }), ErrorCodes.UnsafeFilter);
      expect(await c.count()).toBe(1);
    },
  ],
  [
    'documents returned are copies that callers may change freely',
    async (store) => {
      const c = store.collection<Item>('things');
      const doc: Item = { _id: 'a', tags: ['x'], nested: { a: 1 } };
      await c.insertOne(doc);
      doc.tags?.push('changed-after-insert');
      const read = (await c.findOne({ _id: 'a' })) as Item;
      read.tags?.push('changed-after-read');
      (read.nested as { a: number }).a = 99;
      expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', tags: ['x'], nested: { a: 1 } });
    },
  ],
  [
    'values that JSON cannot carry are refused',
    async (store) => {
      const c = store.collection('things');
      await rejectsWithCode(c.insertOne({ _id: 'd', when: new Date() }), ErrorCodes.StoreFailure);
      await rejectsWithCode(c.insertOne({ _id: 'n', v: Number.NaN }), ErrorCodes.StoreFailure);
      expect(await c.count()).toBe(0);
    },
  ],
  [
    'ids with slashes, spaces and unicode round-trip',
    async (store) => {
      const c = store.collection('things');
      const ids = ['disk/host', 'a b', 'été/ü', 'x'.repeat(300)];
      for (const id of ids) await c.insertOne({ _id: id, id });
      for (const id of ids) expect(await c.findOne({ _id: id })).toEqual({ _id: id, id });
      expect(await c.count({ _id: { $in: ids } })).toBe(ids.length);
    },
  ],
  [
    'listCollections and dropCollection',
    async (store) => {
      await store.collection('alpha').insertOne({ _id: '1' });
      await store.collection('beta').insertOne({ _id: '1' });
      const names = await store.listCollections();
      expect(names).toEqual(expect.arrayContaining(['alpha', 'beta']));
      await store.dropCollection('alpha');
      expect(await store.listCollections()).not.toContain('alpha');
      expect(await store.collection('alpha').count()).toBe(0);
      await store.ping();
    },
  ],
];

/**
 * Registers the store conformance suite with vitest. `open` is called before each case and must give an
 * empty store; the store is closed after the case.
 */
export function describeStoreConformance(adapterName: string, open: () => Promise<OpenedStore>, options: StoreConformanceOptions = {}): void {
  describe(`store conformance: ${adapterName}`, () => {
    let opened: OpenedStore | undefined;
    beforeEach(async () => {
      opened = await open();
    });
    afterEach(async () => {
      await opened?.store.close();
      await opened?.cleanup?.();
      opened = undefined;
    });
    for (const [name, body] of storeConformanceCases) {
      const reason = options.skip?.[name];
      if (reason !== undefined) {
        it.skip(`${name} — skipped: ${reason}`, () => undefined);
        continue;
      }
      it(name, async () => {
        await body((opened as OpenedStore).store);
      });
    }
    const unknownSkips = Object.keys(options.skip ?? {}).filter((n) => !storeConformanceCases.some(([c]) => c === n));
    if (unknownSkips.length > 0) {
      it('skips name existing cases', () => {
        expect(unknownSkips).toEqual([]);
      });
    }
  });
}
