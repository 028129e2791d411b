// The webhooks in an event dry run: the webhooks a change's triggers would send, said and not sent.
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';
import { webhooksFeature } from '../src/index.js';
import { listDeliveries, webhook } from './harness.js';

const engines = engineTests([webhooksFeature]);

describe('webhooks in a dry run', () => {
  it('lists the webhooks the triggers would send, and records no delivery', async () => {
    const h = await engines.start();
    await h.t.post('/api/v2/webhook', webhook({ _id: 'critical', hook: { triggers: ['create'], alarm_patterns: [{ v: { state: { val: 3 } } }] }, request: { url: 'http://127.0.0.1:9/critical' } }));
    await h.t.post('/api/v2/webhook', webhook({ _id: 'minor', hook: { triggers: ['create'], alarm_patterns: [{ v: { state: { val: 1 } } }] }, request: { url: 'http://127.0.0.1:9/minor' } }));
    const report = (await h.t.post('/api/v2/event/dry-run', check({ state: 3 }))).body as { stages: { stage: string; would: { what: string; details?: { by?: string } }[] }[] };
    const alarms = report.stages.find((s) => s.stage === 'alarms')!.would;
    expect(alarms.filter((w) => w.details?.by === 'webhooks').map((w) => w.what)).toEqual(['send webhook critical (POST http://127.0.0.1:9/critical)']);
    expect(await listDeliveries(h.t)).toEqual([]);
  });
});
