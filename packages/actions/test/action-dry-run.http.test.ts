// The actions in an event dry run: the actions a change's triggers would apply, said and not done; the real run of
// the same event then applies exactly those.
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';
import { actionsFeature } from '../src/index.js';

const engines = engineTests([actionsFeature]);

describe('actions in a dry run', () => {
  it('lists the actions the triggers would apply; the real run applies them', async () => {
    const h = await engines.start();
    await h.t.post('/api/v2/actions', { _id: 'ack-disks', type: 'ack', hook: { triggers: ['create'], alarm_patterns: [{ v: { resource: 'disk' } }] }, parameters: { author: 'robot' } });
    await h.t.post('/api/v2/actions', { _id: 'ack-cpus', type: 'ack', hook: { triggers: ['create'], alarm_patterns: [{ v: { resource: 'cpu' } }] }, parameters: { author: 'robot' } });
    const report = (await h.t.post('/api/v2/event/dry-run', check())).body as { stages: { stage: string; would: { what: string; details?: { by?: string } }[] }[] };
    const alarms = report.stages.find((s) => s.stage === 'alarms')!.would;
    expect(alarms.filter((w) => w.details?.by === 'actions').map((w) => w.what)).toEqual(['apply action ack-disks (ack)']);
    expect(await h.alarms()).toEqual([]);
    await h.send(check());
    const [alarm] = await h.eventually((found) => found[0]?.v.ack !== undefined);
    expect(alarm!.v.ack).toMatchObject({ a: 'robot' });
  });
});
