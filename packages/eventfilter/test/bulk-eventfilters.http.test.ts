import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { eventFilterFeature } from '../src/index.js';

const drop = { type: 'drop', pattern: { connector: 'spam' }, priority: 1 };
const bulk = '/api/v2/bulk/eventfilters';

let t: TestKernel;
beforeEach(async () => {
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, eventFilterFeature] });
});
afterEach(() => t.stop());

describe('bulk event-filter rules', () => {
  it('creates, replaces and deletes item by item with the single routes\' checks and words; 207 in order', async () => {
    const created = await t.post(bulk, [{ ...drop, _id: 'd1' }, { ...drop, _id: 'd1' }, { ...drop, name: 'x' }, {}, { ...drop, priority: 2 }]);
    expect(created.status).toBe(207);
    const results = created.body as { id: string; status: number; error?: string }[];
    expect(results).toEqual([
      { id: 'd1', status: 200 },
      { id: 'd1', status: 400, error: expect.stringMatching(/^Operation failure while doing insert: E11000 duplicate key/) },
      { id: '', status: 400, error: 'Unexpected fields: name.' },
      { id: '', status: 400, error: 'Empty request' },
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 200 },
    ]);
    // The single route answers the same words for the same rule.
    expect((await t.post('/api/v2/eventfilter/rules', { ...drop, name: 'x' })).body).toEqual({ name: '', description: results[2]!.error });

    const replaced = await t.put(bulk, [{ ...drop, _id: 'd1', priority: 7 }, { ...drop, _id: 'nope' }, { ...drop, _id: 'd1', extra: 1 }, drop]);
    expect(replaced.body).toEqual([
      { id: 'd1', status: 200 },
      { id: 'nope', status: 404, error: 'No rule with id: nope' },
      { id: 'd1', status: 400, error: 'Unexpected fields: extra.' },
      { id: '', status: 400, error: 'The _id field is required.' },
    ]);
    expect((await t.get('/api/v2/eventfilter/rules/d1')).body).toMatchObject({ priority: 7 });

    const deleted = await t.delete(bulk, { json: [{ _id: 'd1' }, { _id: 'd1' }, { _id: results[4]!.id }] });
    expect(deleted.status).toBe(207);
    expect(deleted.body).toEqual([
      { id: 'd1', status: 200 },
      { id: 'd1', status: 400, error: 'No rule with id: d1' },
      { id: results[4]!.id, status: 200 },
    ]);
    expect((await t.get('/api/v2/eventfilter/rules')).body).toEqual([]);
  });
});
