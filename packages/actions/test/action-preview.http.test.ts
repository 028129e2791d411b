// The action preview: the open alarms an action selects, checked against what the saved action then acts on.
import { describe, expect, it } from 'vitest';
import { expectError } from '@vigie/testkit';
import { check, engineTests } from '@vigie/testkit/engines';
import { actionsFeature } from '../src/index.js';

const engines = engineTests([actionsFeature]);

const ackDisks = {
  _id: 'ack-disks',
  type: 'ack',
  hook: {
    triggers: ['stateinc'],
    alarm_patterns: [{ v: { resource: { regex_match: '^(disk|cpu)' } } }],
    entity_patterns: [{ name: { regex_match: '^(disk|mem)' } }],
  },
  parameters: { author: 'robot' },
};

describe('action preview', () => {
  it('selects the open alarms the saved action then acts on at its trigger', async () => {
    const h = await engines.start();
    await h.send(check({ resource: 'disk1', state: 1 }), check({ resource: 'cpu', state: 1 }), check({ resource: 'mem', state: 1 }), check({ resource: 'disk2', state: 1 }));
    const preview = await h.t.post('/api/v2/actions/preview?limit=1', ackDisks);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ subject: 'alarms', count: 2, scanned: 4, triggers: ['stateinc'], delay_seconds: 0 });
    expect((preview.body as { data: { entity_id: string }[] }).data.map((a) => a.entity_id)).toEqual(['disk1/host']);
    const all = await h.t.post('/api/v2/actions/preview', ackDisks);
    const selected = (all.body as { data: { entity_id: string }[] }).data.map((a) => a.entity_id);
    expect(selected).toEqual(['disk1/host', 'disk2/host']);
    expect((await h.t.get('/api/v2/actions')).body).toEqual([]);

    await h.t.post('/api/v2/actions', ackDisks);
    await h.send(check({ resource: 'disk1', state: 3 }), check({ resource: 'cpu', state: 3 }), check({ resource: 'mem', state: 3 }), check({ resource: 'disk2', state: 3 }));
    const alarms = await h.eventually((found) => found.filter((a) => a.v.ack !== undefined).length >= selected.length);
    expect(alarms.filter((a) => a.v.ack !== undefined).map((a) => a.d).sort()).toEqual(selected);
  });

  it('validates the body as the create route does', async () => {
    const h = await engines.start();
    await expectError(h.t.post('/api/v2/actions/preview', []), 400, 'nothing to insert');
    const invalid = await h.t.post('/api/v2/actions/preview', { ...ackDisks, type: undefined });
    const created = await h.t.post('/api/v2/actions', { ...ackDisks, type: undefined });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual(created.body);
  });
});
