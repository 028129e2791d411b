import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { Collection, Doc, Filter } from '@vigie/kernel';
import { createMemoryStore, DocumentEngine, EngineStore } from './memory.js';

/** A small deterministic generator: the same documents and writes on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

/** What mingo (MongoDB's semantics) counts over every document: the reference a kept count must agree with. */
async function referenceCount(collection: Collection, filter: Filter): Promise<number> {
  const query = new Query(filter);
  return (await collection.find()).filter((doc) => query.test(doc)).length;
}

/** Counts of the alarm counters' shapes, besides others a kept count must follow through arrays and missing fields. */
const filters: Filter[] = [
  { 'v.resolved': null },
  { 'v.resolved': null, 'v.ack': null },
  { 'v.resolved': null, 'v.snooze': null },
  { $and: [{ 'v.resolved': null, 'v.state.val': 3 }, { 'v.state.val': { $in: [0, null] } }] },
  { $and: [{ 'v.resolved': null, 'v.state.val': 3 }, { 'v.state.val': 3 }] },
  { 'v.resolved': null, 'v.state.val': 2 },
  { 'v.resolved': null, $or: [{ 'v.output': { $regex: 'disk 1', $options: 'i' } }, { d: { $in: ['e7', 'e8'] } }] },
  { 'v.ack': { $ne: null }, 'v.state.val': { $gte: 2 } },
  { tags: 'red' },
  { tags: { $size: 2 } },
  { 'v.resolved': { $exists: true } },
];

describe('kept counts', () => {
  const random = generator(11);
  const makeDoc = (i: number): Doc => ({
    _id: `a${i}`,
    d: `e${i % 10}`,
    v: {
      state: { val: Math.floor(random() * 4) },
      output: `Disk ${Math.floor(random() * 30)}%`,
      ...(random() < 0.3 ? { ack: { t: i } } : {}),
      ...(random() < 0.1 ? { snooze: { t: i } } : {}),
      ...(random() < 0.2 ? { resolved: i } : {}),
    },
    ...(random() < 0.3 ? { tags: random() < 0.5 ? ['red', 'blue'] : ['green'] } : {}),
  });

  it('follow every kind of write, asked for again between writes, indexed fields or not', async () => {
    // Each filter is counted after every write: kept from its second count on.
    const store = createMemoryStore();
    const collection = store.collection('alarms');
    for (const field of ['v.resolved', 'v.state.val', 'd']) await collection.createIndex({ keys: { [field]: 1 } });
    await collection.insertMany(Array.from({ length: 400 }, (_, i) => makeDoc(i)));
    const check = async (step: string) => {
      for (const filter of filters) expect(await collection.count(filter), `${step}: ${JSON.stringify(filter)}`).toBe(await referenceCount(collection, filter));
    };
    await check('as inserted');
    for (let round = 0; round < 40; round++) {
      const id = `a${Math.floor(random() * 450)}`;
      switch (round % 8) {
        case 0:
          await collection.updateOne({ _id: id }, { $set: { 'v.state.val': Math.floor(random() * 4), 'v.output': `disk ${round}` } });
          break;
        case 1:
          await collection.updateOne({ _id: id }, { $unset: { 'v.ack': '' }, $set: { 'v.resolved': round } });
          break;
        case 2:
          await collection.updateMany({ d: `e${round % 10}` }, { $set: { 'v.ack': { t: round } } });
          break;
        case 3:
          await collection.replaceOne({ _id: id }, { ...makeDoc(round), _id: id }, { upsert: true });
          break;
        case 4:
          await collection.deleteMany({ 'v.state.val': 0, d: `e${round % 10}` });
          break;
        case 5:
          await store.batch([
            { op: 'insert', collection: 'alarms', doc: makeDoc(1000 + round) },
            { op: 'update', collection: 'alarms', filter: { _id: id }, update: { $push: { tags: 'red' } } },
            { op: 'delete', collection: 'alarms', filter: { _id: `a${round}` } },
          ]);
          break;
        case 6:
          await collection.findOneAndUpdate({ 'v.resolved': null }, { $set: { 'v.snooze': { t: round }, 'v.state.val': 3 } }, { sort: { _id: 1 } });
          break;
        default:
          await collection.updateOne({ _id: `new-${round}` }, { $set: { 'v.output': 'Disk 1%', tags: ['red'] } }, { upsert: true });
      }
      await check(`after write ${round}`);
    }
  });

  it('stay right when more filters are counted than are kept, and when a write is refused', async () => {
    const store = createMemoryStore();
    const collection = store.collection('alarms');
    await collection.createIndex({ keys: { d: 1 }, unique: true });
    await collection.insertMany(Array.from({ length: 100 }, (_, i) => ({ ...makeDoc(i), d: `entity-${i}` })));
    const many: Filter[] = Array.from({ length: 50 }, (_, i) => ({ 'v.state.val': i % 4, 'v.output': { $regex: `${i % 30}%` } }));
    // Counted twice: a count is kept when its filter comes again.
    for (const filter of [...many, ...many]) expect(await collection.count(filter)).toBe(await referenceCount(collection, filter));
    // A batch refused (a duplicate key) changes nothing, and no count moves.
    await expect(
      store.batch([
        { op: 'update', collection: 'alarms', filter: { _id: 'a1' }, update: { $set: { 'v.state.val': 9 } } },
        { op: 'insert', collection: 'alarms', doc: { _id: 'dup', d: 'entity-2' } },
      ]),
    ).rejects.toThrow();
    await collection.updateMany({ 'v.state.val': 1 }, { $set: { 'v.state.val': 2, 'v.output': 'Disk 5%' } });
    // Most recently counted first: those are the ones kept (in the order asked, each would push out the next one).
    for (const filter of [...many].reverse()) expect(await collection.count(filter), JSON.stringify(filter)).toBe(await referenceCount(collection, filter));
    for (const filter of [...many, { 'v.state.val': 9 }]) expect(await collection.count(filter), JSON.stringify(filter)).toBe(await referenceCount(collection, filter));
  });

  it('do not move when the persistence refuses a write', async () => {
    let refuse = false;
    const engine = new DocumentEngine({
      writeChanges() {
        if (refuse) throw new Error('disk full');
      },
      writeIndex() {},
      dropCollection() {},
    });
    const collection = new EngineStore(engine).collection('alarms');
    await collection.insertMany([{ _id: 'x', v: { state: { val: 1 } } }]);
    expect(await collection.count({ 'v.state.val': 1 })).toBe(1);
    refuse = true;
    await expect(collection.updateOne({ _id: 'x' }, { $set: { 'v.state.val': 2 } })).rejects.toThrow('disk full');
    expect(await collection.count({ 'v.state.val': 1 })).toBe(1);
    expect(await collection.count({ 'v.state.val': 2 })).toBe(0);
  });
});
