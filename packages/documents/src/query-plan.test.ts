import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { Doc, Filter, Projection, SortSpec } from '@vigie/kernel';
import { compileMatcher, projectCopy, sortDocs } from './query-plan.js';

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

describe('sortDocs with a count (the first documents of a page)', () => {
  it('gives the first documents of the full stable sort, ties and arrays included', () => {
    let state = 11;
    const random = () => {
      state = (state * 48271) % 2147483647;
      return state / 2147483647;
    };
    const docs = Array.from({ length: 2000 }, (_, i) => ({
      _id: `d${i}`,
      v: { state: Math.floor(random() * 4), t: Math.floor(random() * 50), ...(random() < 0.1 ? {} : { ack: { t: Math.floor(random() * 5) } }) },
      tags: random() < 0.2 ? [Math.floor(random() * 9), 3] : Math.floor(random() * 9),
    }));
    const sorts: SortSpec[] = [{ 'v.state': -1, 'v.t': 1 }, { 'v.ack.t': 1, _id: -1 }, { tags: -1 }, { 'v.t': 1 }];
    for (const sort of sorts) {
      const full = sortDocs(docs, sort).map((doc) => doc._id);
      // Without arrays the order is mingo's (MongoDB's) order; arrays are compared as whole values, as the engine always did.
      if (!('tags' in sort)) expect(full).toEqual(new Query({}).find<Doc>(docs).sort(sort).all().map((doc) => doc._id));
      for (const count of [1, 50, 249]) expect(sortDocs(docs, sort, count).map((doc) => doc._id)).toEqual(full.slice(0, count));
    }
  });
});

describe('projectCopy leaving fields out', () => {
  const docs: Doc[] = [
    { _id: 'a', t: 1, v: { steps: [{ val: 1 }], state: { val: 2 }, long_output_history: ['x'], infos: { constructor: 1 } } },
    { _id: 'b', v: { state: { val: 3 } } },
    { _id: 'c', v: 7 },
    { _id: 'd', v: null, t: 2 },
    { _id: 'e', v: [{ steps: 1, state: 2 }] },
  ];
  const projections: Projection[] = [
    { 'v.steps': 0 },
    { 'v.steps': 0, 'v.long_output_history': 0 },
    { 'v.infos.constructor': 0, t: 0 },
    { v: 0 },
    { _id: 0, 'v.state.val': 0 },
  ];
  it('agrees with mingo, through sub-documents, scalars, nulls and arrays on the way, and shares nothing with the stored document', () => {
    for (const projection of projections) {
      for (const doc of docs) {
        const copy = projectCopy(doc, projection);
        expect(copy, `${JSON.stringify(projection)} on ${doc._id}`).toEqual(new Query({}).find([doc], projection).all()[0]);
        if (typeof copy.v === 'object' && copy.v !== null) expect(copy.v).not.toBe(doc.v);
      }
    }
  });
});
