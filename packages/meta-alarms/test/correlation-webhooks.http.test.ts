// Webhooks see the meta-alarm triggers: a real local HTTP target receives the deliveries of `metaalarm` and
// `metaalarmupdated`, and event patterns see the meta-alarm events.
import { afterEach, describe, expect, it } from 'vitest';
import { webhooksFeature } from '@vigie/webhooks';
import { metaAlarmsFeature } from '../src/index.js';
import { check, engineTests } from '@vigie/testkit/engines';
import { createWebhook, eventually, listDeliveries, startTarget, webhook, type Target } from '../../webhooks/test/harness.js';

const engines = engineTests([metaAlarmsFeature, webhooksFeature]);
let target: Target | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

describe('webhooks on meta-alarm triggers', () => {
  it('delivers metaalarm when a meta-alarm is created and metaalarmupdated when a child joins it', async () => {
    target = await startTarget();
    const h = await engines.start();
    const created = await createWebhook(h.t, webhook({
      hook: { triggers: ['metaalarm'], event_patterns: [{ event_type: 'metaalarm', connector: 'engine' }] },
      request: {
        url: `${target.url}/created`,
        payload: '{"rule":"{{.Alarm.Value.Meta}}","entity":"{{.Alarm.EntityID}}","event":"{{.Event.EventType}}","children":"{{range .Children}}{{.EntityID}} {{end}}"}',
      },
    }));
    await createWebhook(h.t, webhook({ hook: { triggers: ['metaalarmupdated'] }, request: { url: `${target.url}/updated`, payload: '{"count":"{{len .Alarm.Value.Children}}"}' } }));
    const res = await h.t.post('/api/v2/metaalarmrule', { _id: 'pair', name: 'pair', type: 'complex', config: { threshold_count: 2 } });
    expect(res.status, res.text).toBe(200);
    await h.send(check({ resource: 'r1' }), check({ resource: 'r2' }));
    await eventually(async () => target!.received.length, (count) => count >= 1);
    const first = target.received.find((request) => request.url === '/created')!;
    const body = JSON.parse(first.body) as { rule: string; entity: string; event: string; children: string };
    expect(body).toMatchObject({ rule: 'pair', event: 'metaalarm' });
    expect(body.entity).toMatch(/^meta-alarm-entity-.+\/metaalarm$/);
    expect(body.children.trim().split(' ').sort()).toEqual(['r1/host', 'r2/host']);
    expect((await listDeliveries(h.t, `?webhook=${created}`)).map((delivery) => delivery.trigger)).toEqual(['metaalarm']);

    await h.send(check({ resource: 'r3' }));
    const updated = await eventually(async () => target!.received.filter((request) => request.url === '/updated'), (found) => found.length >= 1);
    expect(JSON.parse(updated[0]!.body)).toEqual({ count: '3' });
    expect(target.received.filter((request) => request.url === '/created')).toHaveLength(1);
  });
});
