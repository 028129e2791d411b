/**
 * The rule engines' end-to-end harness (`@vigie/testkit/engines`): the event pipeline, context graph, alarms and
 * pbehaviors running with the features under test, events in through `/api/v2/event`, alarms out through
 * `/alerts/get-alarms`.
 */
import { afterEach, expect } from 'vitest';
import { createLogger, type AnyFeature, type Clock } from '@vigie/kernel';
import { ManualClock } from '@vigie/kernel-testing';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { engineBeatsRef, eventsFeature } from '@vigie/events';
import { check, recordingFeature } from '@vigie/events/testing';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import { startFeatureTest, type TestKernel } from './index.js';
import { eventually as eventuallyRead, waitFor } from './wait.js';

export { check };

export interface ListedAlarm {
  _id: string;
  d: string;
  v: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read the JSON answer freely
}

/** `webserver.conf` sections and keys, over the harness's. */
export type EngineConfig = Record<string, Record<string, string | number>>;

export interface EngineOptions {
  clock?: Clock;
  /** Reuse an installation directory (restart tests). */
  installDir?: string;
}

export interface EngineHarness {
  t: TestKernel;
  /** Log lines (JSON) at info level and above. */
  logs: string[];
  /** Runs every engine beat once now and waits for it (the beats' timers are off unless a test sets `[engine] beat_interval`). */
  beat(): Promise<void>;
  /** Sends events and waits until the pipeline processed them. */
  send(...events: Record<string, unknown>[]): Promise<void>;
  alarms(query?: Record<string, string | number | boolean>): Promise<ListedAlarm[]>;
  /** Runs the beats and reads `/alerts/get-alarms` until `accept` holds. */
  eventually(accept: (alarms: ListedAlarm[]) => boolean, query?: Record<string, string | number | boolean>): Promise<ListedAlarm[]>;
  /** Runs the beats and reads the logs until a line holds `text`. */
  logged(text: string): Promise<string>;
}

/**
 * The features a rule engine needs (events, context graph, alarms, pbehaviors) plus `features`, with a fast job poll;
 * a recording stage after the alarms tells when an event went through. The beats' timers are off (an hour): a test
 * advances its clock and runs the beats (`beat()`, or `eventually`, which runs them before each read), so that what
 * a beat does, triggers and their subscribers included, is done when the test asserts on it.
 */
export async function startEngines(features: readonly AnyFeature[], config: EngineConfig = {}, options: EngineOptions = {}): Promise<EngineHarness> {
  const recorder = recordingFeature([{ name: 'after-alarms', order: 10_000 }]);
  const logs: string[] = [];
  const t = await startFeatureTest({
    features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, ...features, recorder.feature],
    config: { 'webserver.conf': { engine: { beat_interval: '1h' }, server: { jobs_poll_ms: 200 }, ...config } },
    logger: createLogger({ level: 'info', destination: { write: (line: string) => void logs.push(line) } }),
    ...options,
  });
  let sent = 0;
  const send = async (...events: Record<string, unknown>[]) => {
    const res = await t.post('/api/v2/event', events);
    expect(res.status).toBe(200);
    expect((res.body as { failed_events: unknown[] }).failed_events).toEqual([]);
    sent += events.length;
    await recorder.waitFor('after-alarms', sent);
  };
  const alarms = async (query: Record<string, string | number | boolean> = {}) => {
    const search = new URLSearchParams(Object.entries({ with_steps: true, ...query }).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await t.get(`/alerts/get-alarms?${search.toString()}`);
    expect(res.status).toBe(200);
    return (res.body as { data: { alarms: ListedAlarm[] }[] }).data[0]!.alarms;
  };
  const beat = () => t.kernel.scope('events').resolve(engineBeatsRef).runAll();
  const eventually = (accept: (found: ListedAlarm[]) => boolean, query: Record<string, string | number | boolean> = {}) =>
    eventuallyRead(
      async () => {
        await beat();
        return alarms(query);
      },
      accept,
      'the alarms',
    );
  const logged = (text: string) =>
    waitFor(async () => {
      await beat();
      return logs.find((line) => line.includes(text));
    }, `a log line with ${JSON.stringify(text)}`);
  return { t, logs, beat, send, alarms, eventually, logged };
}

/** What `engineTests` gives a test file: the engines of the running test, stopped after each test. */
export interface EngineTests {
  /** The harness the running test started (an error before it starts one). */
  readonly h: EngineHarness;
  /** The test's clock: a `ManualClock` at the suite's `start`, the same across restarts within one test. */
  readonly clock: ManualClock;
  /** Starts the suite's features (or `options.features`) for the running test. */
  start(config?: EngineConfig, options?: EngineOptions & { features?: readonly AnyFeature[] }): Promise<EngineHarness>;
}

/**
 * The setup every engine test file repeats: `start()` runs `features` with the engines on a `ManualClock` pinned at
 * `options.start` (epoch ms; a real clock when absent), and the harness is stopped after each test.
 */
export function engineTests(features: readonly AnyFeature[], options: { start?: number } = {}): EngineTests {
  let harness: EngineHarness | undefined;
  let clock: ManualClock | undefined;
  afterEach(async () => {
    await harness?.t.stop();
    harness = undefined;
    clock = undefined;
  });
  return {
    get h() {
      if (!harness) throw new Error('no engines started in this test');
      return harness;
    },
    get clock() {
      if (!clock) throw new Error(options.start === undefined ? 'engineTests was given no start time' : 'no engines started in this test');
      return clock;
    },
    async start(config = {}, { features: only, ...startOptions } = {}) {
      if (options.start !== undefined) clock ??= new ManualClock(options.start);
      harness = await startEngines(only ?? features, config, { ...(clock ? { clock } : {}), ...startOptions });
      return harness;
    },
  };
}
