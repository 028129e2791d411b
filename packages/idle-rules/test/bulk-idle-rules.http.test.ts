import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { idleRulesFeature } from '../src/index.js';

const rule = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'last_event',
  duration: '3m',
  operation: { type: 'ack', parameters: { output: 'idle' } },
  ...extra,
});

const start = Date.UTC(2024, 5, 1, 12);
let t: TestKernel;
beforeEach(async () => {
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, idleRulesFeature], clock: new ManualClock(start) });
});
afterEach(() => t.stop());

describe('bulk idle rules', () => {
  it('creates, replaces and deletes item by item, answering 207 with each item\'s status and error in order', async () => {
    const created = await t.post('/api/v2/bulk/idle-rules', [
      rule('first', { _id: 'r1' }),
      rule('generated id'),
      rule('duplicate', { _id: 'r1' }),
      { ...rule('bad'), operation: { type: 'assocticket', parameters: { ticket: 'x'.repeat(256) } } },
      { ...rule('bad'), operation: { type: 'ack', parameters: { ticket_url: 'u'.repeat(256) } } },
      { name: 'no type' },
      null,
    ]);
    expect(created.status).toBe(207);
    const results = created.body as { id: string; status: number; error?: string }[];
    expect(results).toEqual([
      { id: 'r1', status: 200 },
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 200 },
      { id: 'r1', status: 400, error: 'failed to create idle rule: duplicate id r1' },
      { id: '', status: 400, error: 'invalid idle rule: operation.parameters.ticket must be at most 255 characters' },
      { id: '', status: 400, error: 'invalid idle rule: operation.parameters.ticket_url must be at most 255 characters' },
      { id: '', status: 400, error: 'invalid idle rule: the type field is required' },
      { id: '', status: 400, error: 'invalid idle rule: expected a dictionary, not None' },
    ]);
    // The single route gives the same words for the same body.
    const single = await t.post('/api/v2/idle-rule', { ...rule('bad'), operation: { type: 'assocticket', parameters: { ticket: 'x'.repeat(256) } } });
    expect(single.body).toEqual({ name: '', description: results[3]!.error });
    const generated = results[1]!.id;

    const replaced = await t.put('/api/v2/bulk/idle-rules', [rule('first, renamed', { _id: 'r1' }), rule('nobody', { _id: 'missing' }), rule('no id'), { _id: generated, name: 1 }]);
    expect(replaced.status).toBe(207);
    expect(replaced.body).toEqual([
      { id: 'r1', status: 200 },
      { id: 'missing', status: 404, error: 'no idle rule with id missing' },
      { id: '', status: 400, error: 'invalid idle rule: _id is required' },
      { id: generated, status: 400, error: expect.stringMatching(/^invalid idle rule: /) },
    ]);
    expect((await t.get('/api/v2/idle-rule/r1')).body).toMatchObject({ name: 'first, renamed' });

    const deleted = await t.delete('/api/v2/bulk/idle-rules', { json: [{ _id: 'r1' }, { _id: 'r1' }, { _id: generated }] });
    expect(deleted.status).toBe(207);
    expect(deleted.body).toEqual([
      { id: 'r1', status: 200 },
      { id: 'r1', status: 404, error: 'no idle rule with id r1' },
      { id: generated, status: 200 },
    ]);
    expect((await t.get('/api/v2/idle-rules')).body).toEqual([]);
  });
});
