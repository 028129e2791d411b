// POST /api/v2/event/dry-run: one event stage by stage, nothing written; then the same event for real, which must
// agree with what the dry run said (event-filter rules, entities, alarm change and triggers).
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';
import { expectError } from '@vigie/testkit';
import { eventFilterFeature } from '../src/index.js';

const engines = engineTests([eventFilterFeature], { start: Date.UTC(2025, 0, 1, 12) });

interface Report {
  event: Record<string, unknown>;
  entity_id: string;
  dropped: string | null;
  stages: { stage: string; simulated: boolean; would: { what: string; details?: Record<string, unknown> }[] }[];
}

const effects = (report: Report, stage: string) => report.stages.find((s) => s.stage === stage)?.would ?? [];

describe('event dry run', () => {
  it('tells what each stage would do, writes nothing, and agrees with the real run of the same event', async () => {
    const h = await engines.start();
    const rule = await h.t.post('/api/v2/eventfilter/rules', { _id: 'critical-disks', type: 'enrichment', pattern: { resource: 'disk' }, actions: [{ type: 'set_field', name: 'State', value: 3 }], on_success: 'pass' });
    expect(rule.status).toBe(200);
    const event = check({ state: 1 });

    const res = await h.t.post('/api/v2/event/dry-run', event);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = res.body as Report;
    expect(report).toMatchObject({ entity_id: 'disk/host', dropped: null, event: { state: 3 } });
    expect(effects(report, 'eventfilter').map((e) => e.what)).toEqual(['rule critical-disks matches', 'change the event']);
    expect(effects(report, 'context-graph.entities')).toEqual([{ what: 'create entities', details: { ids: ['nagios/nagios-1', 'host', 'disk/host'] } }]);
    const alarm = effects(report, 'alarms')[0]!;
    expect(alarm).toMatchObject({ what: 'create an alarm', details: { state: 3, status: 1, triggers: ['create'] } });
    // Nothing was written.
    expect(await h.alarms()).toEqual([]);
    expect((await h.t.get('/api/v2/entities/disk%2Fhost')).status).toBe(404);

    await h.send(event);
    const [real] = await h.alarms();
    expect(real).toMatchObject({ d: report.entity_id, v: { state: { val: 3 }, status: { val: 1 } } });
    expect((await h.t.get('/api/v2/entities/disk%2Fhost')).status).toBe(200);

    // Now the entity and the alarm exist: the same event changes nothing, in the dry run as for real.
    const again = (await h.t.post('/api/v2/event/dry-run', event)).body as Report;
    expect(effects(again, 'context-graph.entities')).toEqual([{ what: 'find the entity', details: { entity: 'disk/host' } }]);
    expect(effects(again, 'alarms')[0]!.what).toBe('leave the alarm unchanged');
    await h.send(event);
    expect((await h.alarms())[0]!.v.steps).toHaveLength(real!.v.steps.length);
  });

  it('reports a drop, and refuses an invalid event', async () => {
    const h = await engines.start();
    await h.t.post('/api/v2/eventfilter/rules', { _id: 'no-tests', type: 'drop', pattern: { component: 'test' } });
    const report = (await h.t.post('/api/v2/event/dry-run', check({ component: 'test' }))).body as Report;
    expect(report.dropped).toBe('dropped by event-filter rule no-tests');
    expect(report.stages.at(-1)!.stage).toBe('eventfilter');
    await expectError(h.t.post('/api/v2/event/dry-run', { event_type: 'check' }), 400, /^invalid event: /);
  });
});
