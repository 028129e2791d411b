import { expect } from 'vitest';
import { ManualClock, type ConfigOverrides } from '@vigie/kernel';
import { alarmsFeature } from '@vigie/alarms';
import { broadcastFeature } from '@vigie/broadcast';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsAmqpFeature, eventsFeature } from '@vigie/events';
import { check } from '@vigie/events/testing';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { liveUpdatesFeature, type AlarmNotice } from '../src/index.js';

export const start = Date.UTC(2025, 0, 1, 12);
export { check };

/** The server of these tests: events, alarms, broadcast messages and the streams, beats every second. */
export async function startLive(server: Record<string, string> = {}, config: ConfigOverrides['string'] = {}): Promise<{ t: TestKernel; clock: ManualClock }> {
  const clock = new ManualClock(start);
  const t = await startFeatureTest({
    features: [eventsFeature, eventsAmqpFeature, contextGraphFeature, alarmsFeature, broadcastFeature, liveUpdatesFeature],
    clock,
    config: { 'webserver.conf': { engine: { beat_interval: '1s' }, alarms: { baggot_time: '1s' }, server, ...config } },
  });
  return { t, clock };
}

/** Posts events; fails unless all are accepted. */
export async function send(t: TestKernel, ...events: Record<string, unknown>[]): Promise<void> {
  const res = await t.post('/api/v2/event', events);
  expect(res.status).toBe(200);
  expect((res.body as { failed_events: unknown[] }).failed_events).toEqual([]);
}

export type Notice = AlarmNotice;
