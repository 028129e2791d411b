// The alarm-filter preview: the open alarms an action selects and when each is due, checked against the saved action.
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';
import { alarmFiltersFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
const startSec = start / 1000;
const engines = engineTests([alarmFiltersFeature], { start });

const escalate = { entity_filter: { 'v.component': 'host' }, condition: { 'v.state.val': { $gte: 2 } }, limit: 600, tasks: ['alerts.useraction.ack'] };

describe('alarm-filter preview', () => {
  it('lists the alarms entity_filter and condition select with their due time; the saved action runs on those due', async () => {
    const h = await engines.start();
    await h.send(check({ resource: 'disk' }), check({ resource: 'cpu', state: 1 }), check({ component: 'other' }));
    engines.clock.advance(300_000);
    await h.send(check({ resource: 'mem', state: 3 }));
    engines.clock.advance(300_000);
    const preview = await h.t.post('/api/v2/alerts/filters/preview', escalate);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({
      subject: 'alarms',
      count: 2,
      scanned: 4,
      due_now: 1,
      data: [
        { entity_id: 'disk/host', due_at: startSec + 600 },
        { entity_id: 'mem/host', due_at: startSec + 900 },
      ],
    });
    expect((await h.t.get('/api/v2/alerts/filters')).body).toEqual([]);

    await h.t.post('/api/v2/alerts/filters', escalate);
    const alarms = await h.eventually((found) => found.some((a) => a.v.ack !== undefined));
    expect(alarms.filter((a) => a.v.ack !== undefined).map((a) => a.d)).toEqual(['disk/host']);
  });

  it('validates the body as the create route does (the spec: an HTML 500 for a missing key)', async () => {
    const h = await engines.start();
    const created = await h.t.post('/api/v2/alerts/filters', { ...escalate, tasks: undefined });
    const previewed = await h.t.post('/api/v2/alerts/filters/preview', { ...escalate, tasks: undefined });
    expect([previewed.status, previewed.headers.get('content-type')]).toEqual([created.status, created.headers.get('content-type')]);
  });
});
