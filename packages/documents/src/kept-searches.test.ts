import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { Collection, Doc, Filter } from '@vigie/kernel';
import { createMemoryStore } from './memory.js';

/** A small deterministic generator: the same documents and writes on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

/** What mingo (MongoDB's semantics) finds among every document: the reference a kept search must agree with. */
async function referenceIds(collection: Collection, filter: Filter): Promise<string[]> {
  const query = new Query(filter);
  return (await collection.find())
    .filter((doc) => query.test(doc))
    .map((doc) => doc._id)
    .sort();
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The alarm list's search: one escaped text, case-insensitive, in several fields, with the entities whose infos match. */
const search = (text: string, fields = ['d', 'v.output', 'v.component'], entities: string[] = []): Filter[] => [
  { $or: fields.map((field) => ({ [field]: { $regex: escape(text), $options: 'i' } })) },
  { 'v.resolved': null, $or: fields.map((field) => ({ [field]: { $regex: escape(text), $options: 'i' } })) },
  { 'v.resolved': null, $or: [...fields.map((field) => ({ [field]: { $regex: escape(text), $options: 'i' } })), { d: { $in: entities } }] },
];

// Texts whose case-insensitive equality differs between upper and lower case (final sigma, sharp s, Kelvin sign,
// dotless and dotted i), punctuation the search escapes, and plain ones.
const words = ['disk', 'DISK full', 'σίσυφος', 'ΣΊΣΥΦΟΣ', 'σίσυφος', 'straße', 'STRASSE', '\u212Aelvin', 'kelvin', 'ıi', 'İstanbul', 'a.b*c', 'x|y', 'host-12', 'HOST-123'];
const needles = ['disk', 'Σ', 'ς', 'ss', 'ß', 'k', 'I', 'i̇', 'a.b*', 'x|y', 'host-12', '-1', 'zzz'];

describe('kept searches', () => {
  const random = generator(23);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const makeDoc = (i: number): Doc => ({
    _id: `a${i}`,
    d: `${pick(words)}/e${i % 10}`,
    // Some paths run through an array, where MongoDB matches inside its elements.
    v:
      i % 37 === 0
        ? [{ output: pick(words), component: pick(words) }]
        : {
            output: random() < 0.2 ? [pick(words), pick(words)] : `${pick(words)} ${Math.floor(random() * 30)}%`,
            ...(random() < 0.8 ? { component: pick(words) } : {}),
            ...(random() < 0.1 ? { component: 12 } : {}),
            ...(random() < 0.25 ? { resolved: i } : {}),
          },
  });

  it('find and count what mingo finds, through every kind of write', async () => {
    const store = createMemoryStore();
    const collection = store.collection('alarms');
    for (const field of ['v.resolved', 'd']) await collection.createIndex({ keys: { [field]: 1 } });
    await collection.insertMany(Array.from({ length: 300 }, (_, i) => makeDoc(i)));
    const byId = async () => new Map((await collection.find()).map((doc) => [doc._id, doc]));
    let docs = await byId();
    // Sorted as the engine sorts: on `d` (plain strings), then on `_id`.
    const expectedPage = (ids: string[]) =>
      [...ids].sort((a, b) => {
        const [da, db] = [docs.get(a)!.d as string, docs.get(b)!.d as string];
        return da < db ? -1 : da > db ? 1 : a < b ? -1 : a > b ? 1 : 0;
      });
    const check = async (step: string) => {
      docs = await byId();
      for (const needle of needles) {
        for (const filter of search(needle, undefined, ['disk/e1', `kelvin/e${step.length % 10}`])) {
          const expected = await referenceIds(collection, filter);
          // Twice: the second time from the kept texts (a search is kept when it comes again).
          for (let ask = 0; ask < 2; ask++) {
            const found = (await collection.find(filter)).map((doc) => doc._id).sort();
            expect(found, `${step}, ask ${ask}: ${JSON.stringify(filter)}`).toEqual(expected);
            expect(await collection.count(filter)).toBe(expected.length);
            // A page sorted on an indexed field is walked in the index's order, the kept texts telling documents apart.
            const page = (await collection.find(filter, { sort: { d: 1, _id: 1 }, limit: 7 })).map((doc) => doc._id);
            expect(page, `${step}, ask ${ask}, a page: ${JSON.stringify(filter)}`).toEqual(expectedPage(expected).slice(0, 7));
          }
        }
      }
    };
    await check('as inserted');
    for (let round = 0; round < 24; round++) {
      const id = `a${Math.floor(random() * 320)}`;
      switch (round % 6) {
        case 0:
          await collection.updateOne({ _id: id }, { $set: { 'v.output': `${pick(words)} ${round}` } });
          break;
        case 1:
          await collection.updateOne({ _id: id }, { $set: { 'v.resolved': round } });
          break;
        case 2:
          await collection.updateMany({ 'v.resolved': { $ne: null } }, { $unset: { 'v.resolved': '' } });
          break;
        case 3:
          await collection.replaceOne({ _id: id }, { ...makeDoc(round * 37), _id: id }, { upsert: true });
          break;
        case 4:
          await collection.deleteMany({ d: { $regex: `e${round % 10}$` }, 'v.component': pick(words) });
          break;
        default:
          await store.batch([
            { op: 'insert', collection: 'alarms', doc: makeDoc(1000 + round) },
            { op: 'update', collection: 'alarms', filter: { _id: id }, update: { $set: { d: `${pick(words)}/moved` } } },
            { op: 'delete', collection: 'alarms', filter: { _id: `a${round}` } },
          ]);
      }
      await check(`after write ${round}`);
    }
  });

  it('leave other shapes of $or to the plain query', async () => {
    const store = createMemoryStore();
    const collection = store.collection('alarms');
    await collection.insertMany(Array.from({ length: 100 }, (_, i) => makeDoc(i)));
    const others: Filter[] = [
      { $or: [{ 'v.output': { $regex: 'dis.', $options: 'i' } }, { d: { $regex: 'HOST', $options: 'i' } }] },
      { $or: [{ 'v.output': { $regex: 'disk' } }, { d: { $regex: 'host', $options: 'i' } }] },
      { $or: [{ 'v.output': { $regex: 'disk', $options: 'i' } }, { 'v.component': 'kelvin' }] },
      { $or: [{ 'v.output': { $regex: '^disk', $options: 'i' } }] },
    ];
    for (const filter of [...others, ...others]) {
      expect((await collection.find(filter)).map((doc) => doc._id).sort(), JSON.stringify(filter)).toEqual(await referenceIds(collection, filter));
    }
  });
});
