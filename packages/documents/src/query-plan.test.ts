import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { Doc, Filter } from '@vigie/kernel';
import { compileMatcher } from './query-plan.js';

describe('compileMatcher', () => {
  const docs: Doc[] = [
    { _id: 'a', d: 'x', v: { resolved: null, state: 2 } },
    { _id: 'b', d: 'x', v: { resolved: 12, state: 2 } },
    { _id: 'c', d: 'y', v: {} },
    { _id: 'd', d: ['x', 'y'], v: [{ resolved: 3 }, { state: 2 }] },
    { _id: 'e', v: 7 },
    { _id: 'f', d: null, v: null },
    { _id: 'g', d: { x: 1 }, v: { resolved: [1, null] } },
    { _id: 'h', flag: true, n: 0 },
  ];
  const filters: Filter[] = [
    { d: 'x', 'v.resolved': null },
    { 'v.resolved': null },
    { 'v.resolved': 12 },
    { 'v.state': 2 },
    { d: null },
    { d: 'y' },
    { flag: true, n: 0 },
    { n: false },
    {},
    { d: { $in: ['x'] } },
  ];
  it('agrees with mingo on scalar and null equalities, through arrays, nulls and scalars on the way', () => {
    for (const filter of filters) {
      const query = new Query(filter);
      const test = compileMatcher(filter);
      expect(docs.filter(test).map((doc) => doc._id), JSON.stringify(filter)).toEqual(docs.filter((doc) => query.test(doc)).map((doc) => doc._id));
    }
  });
});
