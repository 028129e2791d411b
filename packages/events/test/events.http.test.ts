import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, ManualClock } from '@vigie/kernel';
import { eventually, startFeatureTest, testAdmin, type TestKernel } from '@vigie/testkit';
import { metricsFeature } from '@vigie/metrics';
import { PipelineRunner, eventsFeature } from '../src/index.js';
import { check, recordingFeature } from '../src/testing.js';

const start = Date.UTC(2025, 0, 1, 12);
let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function boot(recorder = recordingFeature([{ name: 'last', order: 1000 }]), options: Parameters<typeof startFeatureTest>[0] extends infer O ? Partial<O> : never = {}) {
  t = await startFeatureTest({ features: [eventsFeature, recorder.feature], clock: new ManualClock(start), ...options });
  return { t, recorder };
}

describe('POST /api/v2/event', () => {
  it('queues one event, defaults its timestamp to now and processes it', async () => {
    const { t, recorder } = await boot();
    const res = await t.post('/api/v2/event', check());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sent_events: [{ ...check(), timestamp: start / 1000 }], failed_events: [], retry_events: [] });
    await recorder.waitFor('last', 1);
    expect(recorder.seen.get('last')).toEqual([{ eventId: expect.any(String), entityId: 'disk/host', event: { ...check(), timestamp: start / 1000 } }]);
  });

  it('cuts outputs to 255 and long outputs to 1024 characters, and refuses an author or ticket over 255', async () => {
    const { t, recorder } = await boot();
    const res = await t.post('/api/v2/event', [
      check({ output: 'o'.repeat(300), long_output: 'l'.repeat(2000) }),
      check({ output: `${'o'.repeat(254)}😀` }),
      check({ author: 'a'.repeat(256) }),
      check({ event_type: 'assocticket', ticket: 't'.repeat(256) }),
    ]);
    const body = res.body as { sent_events: { output: string; long_output?: string }[]; failed_events: { field: string; error: string }[] };
    expect(body.sent_events.map((e) => [e.output.length, e.long_output?.length])).toEqual([[255, 1024], [254, undefined]]);
    expect(body.failed_events.map(({ field, error }) => ({ field, error }))).toEqual([
      { field: 'author', error: 'author must be at most 255 characters' },
      { field: 'ticket', error: 'ticket must be at most 255 characters' },
    ]);
    await recorder.waitFor('last', 2);
    expect(recorder.seen.get('last')?.[0]?.event.output).toBe('o'.repeat(255));
  });

  it('takes a list, and says for each refused event which field is wrong and why', async () => {
    const { t, recorder } = await boot();
    const longName = 'x'.repeat(250);
    const events = [
      check({ timestamp: 1700000000 }),
      check({ state: 4 }),
      check({ source_type: 'resource', resource: undefined }),
      check({ event_type: '' }),
      check({ source_type: 'service-x' }),
      check({ connector: 42 }),
      check({ component: longName }),
      'not an event',
      check({ source_type: 'component', resource: undefined, state: 1.5 }),
      { ...check({ source_type: 'connector' }), component: undefined, resource: undefined },
      check({ event_type: 'changestate', state: undefined }),
      check({ event_type: 'snooze' }),
      check({ output: '\ud800' }),
      check({ custom: 'x'.repeat(70_000) }),
      check({ custom: { list: Array.from({ length: 10_001 }, () => 1) } }),
    ];
    const res = await t.post('/api/v2/event', events);
    expect(res.status).toBe(200);
    const body = res.body as { sent_events: unknown[]; failed_events: { event: unknown; field: string | null; error: string }[] };
    expect(body.sent_events).toEqual([check({ timestamp: 1700000000 }), { ...check({ source_type: 'connector' }), component: undefined, resource: undefined, timestamp: start / 1000 }].map((e) => JSON.parse(JSON.stringify(e))));
    expect(body.failed_events.map(({ field, error }) => ({ field, error }))).toEqual([
      { field: 'state', error: 'state must be an integer between 0 and 3' },
      { field: 'resource', error: 'resource must be a non-empty string for a resource event' },
      { field: 'event_type', error: 'event_type must be a non-empty string' },
      { field: 'source_type', error: 'source_type must be one of connector, component, resource, metaalarm, service' },
      { field: 'connector', error: 'connector must be a non-empty string' },
      { field: null, error: expect.stringMatching(/^the routing key .* is 286 octets long, more than 255$/) },
      { field: null, error: 'an event must be a JSON object' },
      { field: 'state', error: 'state must be an integer between 0 and 3' },
      { field: 'state', error: 'a changestate event needs a state' },
      { field: 'duration', error: 'a snooze event needs a duration: a positive number of seconds' },
      { field: 'output', error: 'output is not valid UTF-8 text' },
      { field: 'custom', error: 'custom must be at most 65536 characters' },
      { field: 'custom.list', error: 'custom.list must have at most 10000 elements' },
    ]);
    expect(body.failed_events[6]?.event).toBe('not an event');
    await recorder.waitFor('last', 2);
    expect(recorder.seen.get('last')?.map((s) => s.entityId)).toEqual(['disk/host', 'nagios/nagios-1']);
  });

  it('refuses a changestate or keepstate to state 0 unless [engine] allow_change_severity_to_info (REFERENCE §4.13)', async () => {
    const toInfo = [check({ event_type: 'changestate', state: 0 }), check({ event_type: 'keepstate', state: 0 }), check({ event_type: 'changestate', state: 1 })];
    const { t: refusing } = await boot();
    const refused = (await refusing.post('/api/v2/event', toInfo)).body as { sent_events: { state: number }[]; failed_events: { field: string; error: string }[] };
    expect(refused.sent_events.map((e) => e.state)).toEqual([1]);
    expect(refused.failed_events.map(({ field, error }) => ({ field, error }))).toEqual([
      { field: 'state', error: 'a changestate to state 0 (info) is refused unless [engine] allow_change_severity_to_info is true' },
      { field: 'state', error: 'a keepstate to state 0 (info) is refused unless [engine] allow_change_severity_to_info is true' },
    ]);
    await refusing.stop();
    const { t: allowing } = await boot(undefined, { config: { 'webserver.conf': { engine: { allow_change_severity_to_info: 'true' } } } });
    const allowed = (await allowing.post('/api/v2/event', toInfo)).body as { sent_events: unknown[]; failed_events: unknown[] };
    expect(allowed.sent_events).toHaveLength(3);
    expect(allowed.failed_events).toEqual([]);
  });

  it('empties a non-string long_output and makes the sender the author of user actions', async () => {
    const { t } = await boot();
    const res = await t.post('/event', [check({ long_output: { a: 1 } }), check({ event_type: 'ack', author: 'someone else' })]);
    expect(res.status).toBe(200);
    const sent = (res.body as { sent_events: Record<string, unknown>[] }).sent_events;
    expect(sent[0]?.long_output).toBe('');
    expect(sent[1]?.author).toBe('root');
  });

  it('refuses a body that is not JSON, not UTF-8 or empty with 400, and a too long list with 413', async () => {
    const { t } = await boot(undefined, { config: { 'webserver.conf': { engine: { max_batch_events: '2' } } } });
    const notJson = await t.request('POST', '/api/v2/event', { body: '{"event_type":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect((notJson.body as { description: string }).description).toMatch(/^Malformed JSON: /);
    const notUtf8 = await t.request('POST', '/api/v2/event', { body: Buffer.from([0x7b, 0xff, 0x7d]), headers: { 'content-type': 'application/json' } });
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body).toEqual({ name: '', description: 'The request body is not valid UTF-8 text.' });
    expect((await t.request('POST', '/api/v2/event', { body: '' })).status).toBe(400);
    const tooMany = await t.post('/api/v2/event', [check(), check(), check()]);
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toEqual({ name: '', description: 'A request may carry at most 2 events; this one has 3.' });
    expect((await t.post('/api/v2/event', [check(), check()])).status).toBe(200);
  });

  it('needs authentication', async () => {
    const { t } = await boot();
    expect((await t.request('POST', '/api/v2/event', { json: check(), auth: false })).status).toBe(401);
  });
});

describe('the pipeline', () => {
  it('runs the stages by ascending order; a dropped event reaches no later stage', async () => {
    const order: string[] = [];
    const recorder = recordingFeature([
      { name: 'third', order: 900, act: () => void order.push('third') },
      { name: 'first', order: 10, act: (c) => (order.push('first'), c.event.output === 'drop me' ? c.drop('asked to') : undefined) },
      { name: 'second', order: 420, act: () => void order.push('second') },
    ]);
    const { t } = await boot(recorder);
    await t.post('/api/v2/event', [check({ output: 'drop me' }), check()]);
    await recorder.waitFor('third', 1);
    expect(order).toEqual(['first', 'first', 'second', 'third']);
    expect(recorder.seen.get('third')?.map((s) => s.event.output)).toEqual(['disk full']);
  });

  it('drops and counts an event the stages before validation left invalid, and computes its entity id again', async () => {
    const recorder = recordingFeature([
      { name: 'filter', order: 100, act: (c) => void (c.event.output === 'break it' ? (c.event.connector = '') : (c.event.resource = 'cpu')) },
      { name: 'after', order: 300 },
    ]);
    const { t } = await boot(recorder, { features: [eventsFeature, recorder.feature, metricsFeature] });
    await t.post('/api/v2/event', [check({ output: 'break it' }), check()]);
    await recorder.waitFor('after', 1);
    await recorder.waitFor('filter', 2);
    expect(recorder.seen.get('after')?.map((s) => s.entityId)).toEqual(['cpu/host']);
    // Stage progress reaches the metrics per group of events (or when the pipeline runs dry), not per event.
    const metrics = await eventually(async () => (await t.get('/metrics')).text, (text) => text.includes('vigie_pipeline_events_total{stage="events.validation"} 2'), 'the validation stage counted');
    expect(metrics).toContain('vigie_pipeline_dropped_total{stage="events.validation"} 1');
    expect(metrics).toContain('vigie_pipeline_events_total{stage="events.validation"} 2');
  });

  it('keeps the order of the events of one entity while other entities go concurrently', async () => {
    const started: string[] = [];
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const recorder = recordingFeature([
      {
        name: 'slow',
        order: 500,
        act: async (c) => {
          started.push(`${c.entityId} ${String(c.event.output)}`);
          if (c.event.output === 'a1') await blocked;
        },
      },
    ]);
    const { t } = await boot(recorder);
    const a = (n: number) => check({ resource: 'a', output: `a${n}` });
    const b = (n: number) => check({ resource: 'b', output: `b${n}` });
    await t.post('/api/v2/event', [a(1), a(2), b(1)]);
    await t.post('/api/v2/event', [b(2), a(3)]);
    await recorder.waitFor('slow', 2);
    // a1 holds entity a; b goes on meanwhile.
    expect(started).toEqual(['a/host a1', 'b/host b1', 'b/host b2']);
    release();
    await recorder.waitFor('slow', 5);
    expect(recorder.seen.get('slow')?.filter((s) => s.entityId === 'a/host').map((s) => s.event.output)).toEqual(['a1', 'a2', 'a3']);
  });

  it('retries a failing stage, then sets the event aside in event_failures while the others go on', async () => {
    const attempts = new Map<string, number>();
    const recorder = recordingFeature([
      {
        name: 'flaky',
        order: 500,
        act: (c) => {
          const output = String(c.event.output);
          attempts.set(output, (attempts.get(output) ?? 0) + 1);
          if (output === 'always' || (output === 'once' && attempts.get(output) === 1)) throw new Error(`failing on ${output}`);
        },
      },
      { name: 'after', order: 600 },
    ]);
    const { t } = await boot(recorder);
    await t.post('/api/v2/event', [check({ resource: 'a', output: 'once' }), check({ resource: 'b', output: 'always' }), check({ resource: 'c', output: 'fine' })]);
    await recorder.waitFor('after', 2);
    const runner = t.kernel.scope('events').resolve(PipelineRunner);
    await runner.whenIdle();
    expect(recorder.seen.get('after')?.map((s) => s.event.output).sort()).toEqual(['fine', 'once']);
    expect(attempts).toEqual(new Map([['once', 2], ['always', 3], ['fine', 1]]));
    expect(runner.stats()).toMatchObject({ processed: 2, failed: 1 });
    const failures = await t.kernel.store.collection('event_failures').find({});
    expect(failures).toMatchObject([{ stage: 'flaky', error: 'failing on always', event: { output: 'always' } }]);
  });

  it('holds new events back while [engine] max_waiting_events accepted events wait to be processed', async () => {
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const recorder = recordingFeature([{ name: 'slow', order: 500, act: () => blocked }]);
    const { t } = await boot(recorder, { config: { 'webserver.conf': { engine: { max_waiting_events: '2' } } } });
    expect((await t.post('/api/v2/event', [check({ resource: 'a' }), check({ resource: 'b' })])).status).toBe(200);
    // Two events wait (the stage holds them): the next request is answered only once there is room.
    let answered = false;
    const next = t.post('/api/v2/event', [check({ resource: 'c' })]).then((res) => ((answered = true), res));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    // A sender that gives up while waiting gets none of its events accepted.
    const gaveUp = new AbortController();
    const abandoned = fetch(`${t.url}/api/v2/event`, {
      method: 'POST',
      signal: gaveUp.signal,
      headers: { authorization: `Basic ${Buffer.from(`${testAdmin.user}:${testAdmin.password}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify([check({ resource: 'abandoned' })]),
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    gaveUp.abort();
    await abandoned;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Admitted after the abandoned request was decided.
    const last = t.post('/api/v2/event', [check({ resource: 'd' })]);
    release();
    expect((await next).body).toMatchObject({ sent_events: [{ resource: 'c' }] });
    expect((await last).body).toMatchObject({ sent_events: [{ resource: 'd' }] });
    await recorder.waitFor('slow', 4);
    await t.kernel.scope('events').resolve(PipelineRunner).whenIdle();
    expect(recorder.seen.get('slow')?.map((s) => s.event.resource).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it("reports each stage's throughput and lag to the metrics", async () => {
    const recorder = recordingFeature([{ name: 'last', order: 1000 }]);
    const kernel = await startFeatureTest({ features: [eventsFeature, recorder.feature, metricsFeature], clock: new ManualClock(start) });
    t = kernel;
    await kernel.post('/api/v2/event', [check({ output: 'one' }), check({ output: 'two' })]);
    await recorder.waitFor('last', 2);
    const metrics = await eventually(async () => (await kernel.get('/metrics')).text, (text) => text.includes('vigie_pipeline_events_total{stage="events.validation"} 2'), 'the validation stage counted');
    expect(metrics).toContain('vigie_pipeline_events_total{stage="events.validation"} 2');
    expect(metrics).toContain('vigie_pipeline_lag_seconds{stage="events.validation"} 0');
  });

  it('traces an event with debug: true through every stage in the log', async () => {
    const lines: string[] = [];
    const recorder = recordingFeature([{ name: 'last', order: 1000 }]);
    await boot(recorder, { logger: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } }) });
    await t?.post('/api/v2/event', [check({ debug: true, output: 'traced' }), check({ output: 'quiet' })]);
    await recorder.waitFor('last', 2);
    const traced = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.eventId !== undefined);
    expect(traced.map((l) => `${String(l.stage)} ${String(l.msg)}`)).toEqual([
      'pipeline event accepted',
      'events.recent-sample stage starts',
      'events.recent-sample stage done',
      'events.validation stage starts',
      'events.validation stage done',
      'last stage starts',
      'last stage done',
      'pipeline event processed',
    ]);
    expect(lines.some((line) => line.includes('quiet'))).toBe(false);
  });
});
