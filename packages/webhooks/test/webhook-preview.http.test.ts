// The webhook preview: the open alarms a webhook selects, checked against the deliveries the saved webhook records.
import { afterEach, describe, expect, it } from 'vitest';
import { expectError } from '@vigie/testkit';
import { check, engineTests } from '@vigie/testkit/engines';
import { webhooksFeature } from '../src/index.js';
import { eventually, listDeliveries, startTarget, webhook, type Target } from './harness.js';

const engines = engineTests([webhooksFeature]);
let target: Target | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

const critical = (url: string) =>
  webhook({
    _id: 'critical-ack',
    hook: { triggers: ['ack'], alarm_patterns: [{ v: { state: { val: 3 } } }], entity_patterns: [{ type: 'resource' }] },
    request: { url },
  });

describe('webhook preview', () => {
  it('selects the open alarms the saved webhook then sends for at its trigger', async () => {
    target = await startTarget();
    const h = await engines.start();
    await h.send(check({ resource: 'disk', state: 3 }), check({ resource: 'cpu', state: 2 }), check({ source_type: 'component', resource: undefined, component: 'db', state: 3 }), check({ resource: 'mem', state: 3 }));
    const preview = await h.t.post('/api/v2/webhook/preview', critical(target.url));
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ subject: 'alarms', count: 2, scanned: 4, triggers: ['ack'], enabled: true });
    const listed = (preview.body as { data: { _id: string; entity_id: string }[] }).data;
    expect(listed.map((a) => a.entity_id)).toEqual(['disk/host', 'mem/host']);
    const selected = listed.map((a) => a._id).sort();
    expect((await h.t.get('/api/v2/webhook')).body).toEqual([]);

    await h.t.post('/api/v2/webhook', critical(target.url));
    const ack = { event_type: 'ack', author: 'bob', output: 'seen', state: undefined };
    await h.send(check({ resource: 'disk', ...ack }), check({ resource: 'cpu', ...ack }), check({ source_type: 'component', resource: undefined, component: 'db', ...ack }), check({ resource: 'mem', ...ack }));
    const deliveries = await eventually(() => listDeliveries(h.t), (found) => found.length >= selected.length);
    expect(deliveries.map((d) => d.alarm).sort()).toEqual(selected);
  });

  it('validates the body as the create route does', async () => {
    const h = await engines.start();
    await expectError(h.t.post('/api/v2/webhook/preview', {}), 400, ((await h.t.post('/api/v2/webhook', {})).body as { description: string }).description);
  });
});
