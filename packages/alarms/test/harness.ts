import { expect } from 'vitest';
import { kernelRefs, defineFeature, ManualClock, type AnyFeature, type ConfigOverrides } from '@vigie/kernel';
import { contextGraphFeature } from '@vigie/context-graph';
import { engineBeatsRef, eventsFeature } from '@vigie/events';
import { check, recordingFeature } from '@vigie/events/testing';
import { eventually as eventuallyRead, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { alarmTriggerEvent, type AlarmTriggerEvent } from '../src/index.js';
import { alarmsFeature } from '../src/index.js';

export const start = Date.UTC(2025, 0, 1, 12);
export const startSec = start / 1000;

/** A check event on `disk/host` from `nagios/nagios-1` (the events package's test event). */
export const event = check;

export interface ListedAlarm {
  _id: string;
  t: number;
  d: string;
  v: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read the JSON answer freely
  entity: Record<string, unknown> | null;
}

/** A feature recording every `alarms.trigger` the bus carries, as `<trigger> <entity>`. */
function triggerRecorder(): { feature: AnyFeature; seen: string[] } {
  const seen: string[] = [];
  const feature = defineFeature({
    id: 'trigger-recorder',
    kernel: '^0.1.0',
    dependsOn: ['alarms'],
    register(f) {
      f.consume(alarmTriggerEvent);
      f.onInit((c) => {
        c.resolve(kernelRefs.eventBus).on(alarmTriggerEvent, (payload: AlarmTriggerEvent) => {
          seen.push(`${payload.trigger} ${payload.alarm.d}`);
        });
      });
    },
  });
  return { feature, seen };
}

export interface AlarmsHarness {
  t: TestKernel;
  clock: ManualClock;
  triggers: string[];
  /** Sends events and waits until the pipeline has processed them all. */
  send(...events: Record<string, unknown>[]): Promise<void>;
  /** Sends events and waits until `processed` of them went through the whole pipeline (others are dropped). */
  sendSome(processed: number, ...events: Record<string, unknown>[]): Promise<void>;
  /** `/alerts/get-alarms` with `query`; the alarms of the page. */
  alarms(query?: Record<string, string | number | boolean>): Promise<ListedAlarm[]>;
  /** Runs every engine beat once now and waits for it (the beats' timers are off in these tests). */
  beat(): Promise<void>;
  /** Runs the beats and reads `/alerts/get-alarms` until `accept` holds. */
  eventually(query: Record<string, string | number | boolean>, accept: (alarms: ListedAlarm[]) => boolean): Promise<ListedAlarm[]>;
  stop(): Promise<void>;
}

export async function startAlarms(alarmsConfig: Record<string, string> = {}, extra: { features?: AnyFeature[]; config?: ConfigOverrides } = {}): Promise<AlarmsHarness> {
  const clock = new ManualClock(start);
  const recorder = recordingFeature([{ name: 'after-alarms', order: 10_000 }]);
  const triggers = triggerRecorder();
  const t = await startFeatureTest({
    features: [eventsFeature, contextGraphFeature, alarmsFeature, recorder.feature, triggers.feature, ...(extra.features ?? [])],
    clock,
    // The beats' timers stay off (an hour): tests advance the clock and run the beats themselves, so what a beat
    // changes (alarms and the triggers it emits) is all done when they assert on it.
    config: { 'webserver.conf': { engine: { beat_interval: '1h' }, alarms: alarmsConfig, ...extra.config?.['webserver.conf'] } },
  });
  let sent = 0;
  const sendSome = async (processed: number, ...events: Record<string, unknown>[]) => {
    const res = await t.post('/api/v2/event', events);
    expect(res.status).toBe(200);
    expect((res.body as { failed_events: unknown[] }).failed_events).toEqual([]);
    sent += processed;
    // Generous: a loaded CI machine is slow on the 2,000-step test; a passing run does not wait for it.
    await recorder.waitFor('after-alarms', sent, 110_000);
  };
  const send = (...events: Record<string, unknown>[]) => sendSome(events.length, ...events);
  const alarms = async (query: Record<string, string | number | boolean> = {}) => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await t.get(`/alerts/get-alarms?${search.toString()}`);
    expect(res.status).toBe(200);
    const body = res.body as { data: { alarms: ListedAlarm[] }[] };
    return body.data[0]!.alarms;
  };
  const beat = () => t.kernel.scope('events').resolve(engineBeatsRef).runAll();
  const eventually = (query: Record<string, string | number | boolean>, accept: (alarms: ListedAlarm[]) => boolean) =>
    eventuallyRead(
      async () => {
        await beat();
        return alarms(query);
      },
      accept,
      'the alarms',
    );
  return { t, clock, triggers: triggers.seen, send, sendSome, alarms, beat, eventually, stop: () => t.stop() };
}
