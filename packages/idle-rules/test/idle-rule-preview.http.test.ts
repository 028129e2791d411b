// The idle-rule preview: what a rule would select and when it fires, checked against what the saved rule then does.
import { describe, expect, it } from 'vitest';
import { expectError } from '@vigie/testkit';
import { check, engineTests } from '@vigie/testkit/engines';
import { idleRulesFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
const engines = engineTests([idleRulesFeature], { start });

interface PreviewAnswer {
  subject: string;
  count: number;
  scanned: number;
  idle_now: number;
  problem?: string;
  data: { entity_id: string; idle_since: number; idle_at: number }[];
}

const rule = {
  name: 'quiet disks',
  type: 'last_event',
  duration: '3m',
  operation: { type: 'ack', parameters: { author: 'idle' } },
  alarm_patterns: [{ v: { resource: { regex_match: 'disk' } } }],
};

describe('idle rule preview', () => {
  it('lists the alarms the rule selects and when each is idle; the saved rule then acts on exactly those idle now', async () => {
    await engines.start();
    await engines.h.send(check({ resource: 'disk1' }), check({ resource: 'cpu' }));
    engines.clock.advance(2 * 60_000);
    await engines.h.send(check({ resource: 'disk2' }));
    engines.clock.advance(90_000);

    const preview = await engines.h.t.post('/api/v2/idle-rule/preview?limit=10', rule);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const answer = preview.body as PreviewAnswer;
    const nowSec = engines.clock.nowSec();
    expect(answer).toMatchObject({ subject: 'alarms', count: 2, scanned: 3, idle_now: 1 });
    expect(answer.data.map((a) => [a.entity_id, a.idle_at - nowSec])).toEqual([
      ['disk1/host', -30],
      ['disk2/host', 90],
    ]);
    // Nothing was stored.
    expect((await engines.h.t.get('/api/v2/idle-rules')).body).toEqual([]);

    await engines.h.t.post('/api/v2/idle-rule', rule);
    const acked = await engines.h.eventually((alarms) => alarms.some((a) => a.v.ack !== undefined));
    const idleNow = answer.data.filter((a) => a.idle_at <= nowSec).map((a) => a.entity_id);
    expect(acked.filter((a) => a.v.ack !== undefined).map((a) => a.d)).toEqual(idleNow);
  });

  it('validates the body as the create route does, and says why the engine would skip a rule', async () => {
    await engines.start();
    await expectError(engines.h.t.post('/api/v2/idle-rule/preview', { ...rule, name: undefined }), 400, 'invalid idle rule: name');
    await expectError(engines.h.t.post('/api/v2/idle-rule/preview', { ...rule, extra: 1 }), 400, 'invalid idle rule: the following keys are invalid: extra');
    await expectError(engines.h.t.post('/api/v2/idle-rule/preview?limit=0', rule), 400, 'invalid idle rule: limit should be at least 1');
    const skipped = await engines.h.t.post('/api/v2/idle-rule/preview', { ...rule, duration: 'soon' });
    expect(skipped.body).toMatchObject({ count: 0, problem: 'duration "soon" is not a duration' });
  });
});
