// The meta-alarm rule preview: the open alarms a rule selects and the groups it would form over the last window.
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';
import { metaAlarmsFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
const engines = engineTests([metaAlarmsFeature], { start });

interface Preview {
  count: number;
  window_start: number | null;
  groups: { alarms: number; reaches_threshold: boolean | null; entities: string[] }[];
}

const rule = { _id: 'disks', name: 'disks', type: 'complex', config: { threshold_count: 2, time_interval: 60, alarm_patterns: [{ v: { resource: { regex_match: '^disk' } } }] } };

describe('meta-alarm rule preview', () => {
  it('lists the groups the rule would form over the last window, by time_interval', async () => {
    const h = await engines.start();
    await h.send(check({ resource: 'disk1' }), check({ resource: 'cpu' }));
    engines.clock.advance(30_000);
    await h.send(check({ resource: 'disk2' }));
    engines.clock.advance(60_000);
    await h.send(check({ resource: 'disk3' }));
    engines.clock.advance(10_000);
    const res = await h.t.post('/api/v2/metaalarmrule/preview', rule);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const preview = res.body as Preview;
    // The window is the last 60 s: disk1 and disk2 are older; disk3 alone opens a group.
    expect(preview).toMatchObject({ count: 1, window_start: engines.clock.nowSec() - 60, groups: [{ alarms: 1, reaches_threshold: false, entities: ['disk3/host'] }] });

    const wide = await h.t.post('/api/v2/metaalarmrule/preview', { ...rule, config: { ...rule.config, time_interval: 3600 } });
    expect((wide.body as Preview).groups).toEqual([{ key: String(start / 1000), open_time: start / 1000, alarms: 3, reaches_threshold: true, entities: ['disk1/host', 'disk2/host', 'disk3/host'] }]);
    expect((await h.t.get('/api/v2/metaalarmrule')).body).toEqual([]);
  });

  it('validates the body as the create route does', async () => {
    const h = await engines.start();
    const created = await h.t.post('/api/v2/metaalarmrule', { name: 'x' });
    const previewed = await h.t.post('/api/v2/metaalarmrule/preview', { name: 'x' });
    expect([previewed.status, previewed.body]).toEqual([created.status, created.body]);
  });
});
