import { update as mingoUpdate } from 'mingo';
import { describe, expect, it } from 'vitest';
import { fastUpdate } from './fast-update.js';
import type { Doc, Update } from '@vigie/kernel';

const stored = (): Doc => ({ _id: 'a', n: 1, tags: ['x', 'y'], nested: { a: 1, b: { c: 'deep' } }, list: [{ k: 'p' }], flag: true });

/** What the general implementation (mingo, as the engine runs it) makes of the same update. */
function general(doc: Doc, update: Update): Doc {
  const copy = structuredClone(doc);
  mingoUpdate(copy, update as never, undefined, undefined, { cloneMode: 'deep' });
  return copy;
}

describe('fastUpdate', () => {
  const cases: [string, Update][] = [
    ['$set of new and existing fields, nested', { $set: { n: 2, 'nested.b.c': 'changed', 'fresh.path': [1, 2] } }],
    ['$unset of present and missing paths', { $unset: { n: '', 'nested.a': '', 'missing.x': '' } }],
    ['$inc of present and missing fields', { $inc: { n: 5, 'nested.z': 2 } }],
    ['$min and $max', { $min: { n: 0 }, $max: { 'nested.a': 7 } }],
    ['$push of a value and of a sub-document', { $push: { tags: 'z', fresh: { k: 1 } } }],
    ['$push of several values with $each, to a list and to a missing field', { $push: { tags: { $each: ['z', 'w'] }, fresh: { $each: [{ k: 1 }, 'v'] } } }],
    ['$addToSet of one value and of $each, with duplicates', { $addToSet: { tags: { $each: ['y', 'z', 'z'] }, more: 'one' } }],
    ['$set of elements a list holds', { $set: { 'tags.1': 'z', 'list.0': { k: 'r' } } }],
    ['several operators at once', { $set: { flag: false }, $inc: { n: 1 }, $addToSet: { tags: 'w' } }],
  ];
  for (const [name, update] of cases) {
    it(`agrees with the general implementation: ${name}`, () => {
      const doc = stored();
      const before = structuredClone(doc);
      const result = fastUpdate(doc, update);
      expect(result).toBeDefined();
      expect(result?.doc).toEqual(general(doc, update));
      expect(result?.changed).toBe(true);
      // Copy-on-write: the stored version is untouched.
      expect(doc).toEqual(before);
    });
  }

  it('shares what the update does not touch and says when nothing changed', () => {
    const doc = stored();
    const result = fastUpdate(doc, { $addToSet: { tags: 'z' } });
    expect(result?.doc.list).toBe(doc.list);
    expect(result?.doc.nested).toBe(doc.nested);
    expect(fastUpdate(doc, { $addToSet: { tags: 'x' }, $set: { n: 1 }, $unset: { none: '' } })?.changed).toBe(false);
    expect(fastUpdate(doc, { $push: { tags: { $each: [] } } })?.changed).toBe(false);
  });

  it('adds to long lists right from each version, the latest or an older one whose write failed', () => {
    const first = { _id: 'connector', links: Array.from({ length: 100 }, (_, i) => `r${i}`) };
    const second = fastUpdate(first, { $addToSet: { links: { $each: ['r5', 'new-1'] } } })?.doc as typeof first;
    expect(second.links).toEqual([...first.links, 'new-1']);
    const third = fastUpdate(second, { $addToSet: { links: { $each: ['new-1', 'new-2'] } } })?.doc as typeof first;
    expect(third.links).toEqual([...first.links, 'new-1', 'new-2']);
    expect(fastUpdate(third, { $addToSet: { links: 'new-2' } })?.changed).toBe(false);
    expect(fastUpdate(third, { $addToSet: { links: 'r99' } })?.changed).toBe(false);
    // The versions before do not hold what was added after them.
    const again = fastUpdate(first, { $addToSet: { links: 'new-1' } });
    expect(again?.changed).toBe(true);
    expect(again?.doc.links).toEqual([...first.links, 'new-1']);
    expect(fastUpdate(second, { $addToSet: { links: 'new-2' } })?.doc.links).toEqual([...first.links, 'new-1', 'new-2']);
    expect(first.links).toHaveLength(100);
    expect(second.links).toHaveLength(101);
  });

  it('copies and checks the values it stores', () => {
    const value = { k: [1] };
    const result = fastUpdate(stored(), { $set: { v: value } });
    expect(result?.doc.v).toEqual(value);
    expect(result?.doc.v).not.toBe(value);
    expect(() => fastUpdate(stored(), { $set: { v: new Date() } })).toThrow(/non-JSON/);
  });

  it('leaves the finer MongoDB rules to the general implementation', () => {
    const doc = stored();
    for (const update of [
      { $set: { 'list.0.k': 'q' } },
      { $set: { 'tags.5': 'q' } },
      { $set: { 'nested.0': 1 } },
      { $set: { 'tags.01': 'q' } },
      { $inc: { 'tags.0': 1 } },
      { $set: { 'tags.$': 'q' } },
      { $push: { tags: { $each: ['q'], $position: 0 } } },
      { $addToSet: { list: { k: 'p' } } },
      { $set: { nested: 1, 'nested.a': 2 } },
      { $inc: { 'tags': 1 } },
      { $set: { _id: 'b' } },
      { $pull: { tags: 'x' } },
      { $set: { 'n.x': 1 } },
    ] as Update[]) {
      expect(fastUpdate(doc, update), JSON.stringify(update)).toBeUndefined();
    }
  });
});
