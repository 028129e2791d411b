// The event-filter rule preview: the recently processed events a rule matches, checked against what the saved rule
// then does to the same events; and the bounds of the sample (per connector, age).
import { afterEach, describe, expect, it } from 'vitest';
import { contextGraphFeature } from '@vigie/context-graph';
import { PipelineRunner, eventsFeature } from '@vigie/events';
import { check, recordingFeature } from '@vigie/events/testing';
import { ManualClock } from '@vigie/kernel-testing';
import { expectError, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { eventFilterFeature } from '../src/index.js';

let t: TestKernel;
afterEach(() => t.stop());

const start = Date.UTC(2025, 0, 1, 12);

async function begin(engine: Record<string, string> = {}) {
  const recorder = recordingFeature([{ name: 'out', order: 300 }]);
  const clock = new ManualClock(start);
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, eventFilterFeature, recorder.feature], clock, config: { 'webserver.conf': { engine } } });
  const send = async (...events: Record<string, unknown>[]) => {
    const before = recorder.seen.get('out')?.length ?? 0;
    const res = await t.post('/api/v2/event', events);
    expect((res.body as { failed_events: unknown[] }).failed_events).toEqual([]);
    await t.kernel.scope('events').resolve(PipelineRunner).whenIdle();
    return (recorder.seen.get('out') ?? []).slice(before).map((s) => s.event);
  };
  return { clock, send };
}

interface Preview {
  count: number;
  scanned: number;
  data: { received_at: number; event: Record<string, unknown> }[];
  problem?: string;
}

const dropTests = { _id: 'drop-tests', type: 'drop', pattern: { component: { regex_match: '^test-' } } };

describe('event-filter rule preview', () => {
  it('lists the recent events the rule matches; the saved rule drops exactly those when they come again', async () => {
    const { send } = await begin();
    const events = [check({ component: 'test-a' }), check({ component: 'prod' }), check({ component: 'test-b', connector: 'zabbix' })];
    await send(...events);
    const res = await t.post('/api/v2/eventfilter/rules/preview', dropTests);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const preview = res.body as Preview;
    expect(preview).toMatchObject({ subject: 'events', count: 2, scanned: 3 });
    const matched = preview.data.map((entry) => entry.event.component).sort();
    expect(matched).toEqual(['test-a', 'test-b']);
    expect((await t.get('/api/v2/eventfilter/rules')).body).toEqual([]);

    await t.post('/api/v2/eventfilter/rules', dropTests);
    const out = await send(...events);
    const dropped = events.map((e) => e.component).filter((component) => !out.some((e) => e.component === component));
    expect(dropped.sort()).toEqual(matched);
  });

  it('keeps the last events of each connector, none older than the configured age', async () => {
    const { clock, send } = await begin({ recent_events_per_connector: '2', recent_events_max_age: '10m' });
    await send(check({ component: 'test-1' }));
    clock.advance(6 * 60_000);
    await send(check({ component: 'test-2' }), check({ component: 'test-3' }), check({ component: 'test-4', connector: 'zabbix' }));
    const listed = async () => ((await t.post('/api/v2/eventfilter/rules/preview', dropTests)).body as Preview).data.map((e) => e.event.component);
    // test-1 was pushed out of nagios' two.
    expect(await listed()).toEqual(['test-2', 'test-3', 'test-4']);
    clock.advance(10 * 60_000);
    expect(await listed()).toEqual(['test-2', 'test-3', 'test-4']);
    clock.advance(1000);
    expect(await listed()).toEqual([]);
  });

  it('validates the body as the create route does, and says why a rule would be skipped', async () => {
    await begin();
    await expectError(t.post('/api/v2/eventfilter/rules/preview', {}), 400, ((await t.post('/api/v2/eventfilter/rules', {})).body as { description: string }).description);
    const disabled = await t.post('/api/v2/eventfilter/rules/preview', { ...dropTests, enabled: false });
    expect(disabled.body).toMatchObject({ count: 0, problem: 'the rule is disabled' });
  });
});
