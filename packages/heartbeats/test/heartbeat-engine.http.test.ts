// The heartbeat engine end to end: heartbeats through /api/v2/heartbeat, events through /api/v2/event, alarms read
// through /alerts/get-alarms; an injected clock makes the intervals pass, the beats the test runs check them.
import { describe, expect, it } from 'vitest';
import { check, engineTests, type EngineHarness } from '@vigie/testkit/engines';
import { heartbeatAlarmResource, heartbeatId, heartbeatsFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
const pattern = { connector: 'nagios', connector_name: 'nagios-1' };
const hid = heartbeatId(pattern);
// REFERENCE §5.5: the alarm's resource is the pattern's sorted key:value pairs joined with '.'.
const resource = heartbeatAlarmResource(pattern);
const entity = `${resource}/heartbeats`;
const engines = engineTests([heartbeatsFeature], { start });

async function begin(): Promise<EngineHarness> {
  const h = await engines.start({ alarms: { baggot_time: '1s' } });
  const res = await h.t.post('/api/v2/heartbeat', { pattern, expected_interval: '1m', output: 'nagios-1 is silent' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return h;
}

const heartbeatAlarm = (alarms: { d: string }[]) => alarms.find((a) => a.d === entity) as { d: string; v: Record<string, any> } | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

describe('heartbeats', () => {
  it('raises a critical alarm when no matching event came within the interval, and resolves it on the next one', async () => {
    await begin();
    // The first interval starts when the engine first sees the heartbeat (a beat).
    await engines.h.beat();
    await engines.h.send(check({ state: 0 }));
    engines.clock.advance(50_000);
    // A matching event refreshes the heartbeat: 50 s later, 59 s after the first one, still no alarm.
    await engines.h.send(check({ state: 0, resource: 'cpu' }));
    engines.clock.advance(59_000);
    await engines.h.beat();
    expect(heartbeatAlarm(await engines.h.alarms())).toBeUndefined();
    engines.clock.advance(2000);
    const alarms = await engines.h.eventually((found) => heartbeatAlarm(found) !== undefined);
    expect(heartbeatAlarm(alarms)!.v).toMatchObject({
      state: { val: 3 },
      output: 'nagios-1 is silent',
      connector: 'heartbeat',
      connector_name: 'heartbeat',
      component: 'heartbeats',
      resource,
    });
    // Events that do not match (another connector name) do not resolve it.
    await engines.h.send(check({ connector_name: 'nagios-2' }));
    engines.clock.advance(5000);
    await engines.h.beat();
    expect(heartbeatAlarm(await engines.h.alarms())!.v.state.val).toBe(3);
    await engines.h.send(check({ state: 0 }));
    await engines.h.eventually((found) => heartbeatAlarm(found)?.v.state.val === 0);
    engines.clock.advance(2000);
    await engines.h.eventually((found) => heartbeatAlarm(found) === undefined);
    expect(heartbeatAlarm(await engines.h.alarms({ opened: false, resolved: true }))).toBeDefined();
  });

  it('closes the alarm of a deleted heartbeat', async () => {
    await begin();
    await engines.h.beat();
    engines.clock.advance(61_000);
    await engines.h.eventually((found) => heartbeatAlarm(found)?.v.state.val === 3);
    expect((await engines.h.t.request('DELETE', `/api/v2/heartbeat/${hid}`)).status).toBe(200);
    await engines.h.eventually((found) => heartbeatAlarm(found)?.v.state.val === 0);
  });
});
