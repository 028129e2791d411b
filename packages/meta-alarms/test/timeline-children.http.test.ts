// The timeline of a meta-alarm with its children's steps (`GET /api/v2/alarms/<id>/steps?with_children=true`).
import { describe, expect, it } from 'vitest';
import { metaAlarmsFeature } from '../src/index.js';
import { check, engineTests, type ListedAlarm } from '@vigie/testkit/engines';

const engines = engineTests([metaAlarmsFeature]);

interface Step {
  _t: string;
  alarm_id?: string;
  entity_id?: string;
}

describe('meta-alarm timeline', () => {
  it('merges the children\'s steps on request, each naming its alarm and entity', async () => {
    const h = await engines.start();
    expect((await h.t.post('/api/v2/metaalarmrule', { _id: 'by-host', name: 'by host', type: 'relation' })).status).toBe(200);
    await h.send(check({ source_type: 'component', resource: undefined, output: 'host down' }));
    await h.send(check({ resource: 'disk', output: 'disk down' }));
    const alarms = await h.eventually((found: ListedAlarm[]) => found.some((alarm) => alarm.d === 'disk/host' && alarm.v.parents.length === 1));
    const meta = alarms.find((alarm) => alarm.d === 'host')!;
    const disk = alarms.find((alarm) => alarm.d === 'disk/host')!;
    const alone = (await h.t.get(`/api/v2/alarms/${meta._id}/steps`)).body as { steps: Step[]; total: number };
    expect(alone.steps.every((step) => step.alarm_id === undefined)).toBe(true);
    const merged = (await h.t.get(`/api/v2/alarms/${meta._id}/steps?with_children=true`)).body as { steps: Step[]; total: number };
    expect(merged.total).toBe(alone.total + disk.v.steps.length);
    expect(merged.steps.filter((step) => step.entity_id === 'disk/host').map((step) => step._t)).toEqual(disk.v.steps.map((step: Step) => step._t));
    expect(merged.steps.filter((step) => step.alarm_id === meta._id)).toHaveLength(alone.total);
    expect(merged.steps.find((step) => step._t === 'metaalarmattach')).toMatchObject({ alarm_id: disk._id, entity_id: 'disk/host' });
  });
});
