// The idle-rule engine end to end: rules through /api/v2/idle-rule, events through /api/v2/event, effects through
// /alerts/get-alarms; an injected clock makes minutes pass, 1 s beats apply the rules.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel/testing';
import { check, startEngines, type EngineHarness } from '../../actions/test/engine-harness.js';
import { idleRulesFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
let h: EngineHarness | undefined;
let clock: ManualClock;
afterEach(async () => {
  await h?.t.stop();
  h = undefined;
});

async function begin(config: Record<string, Record<string, string | number>> = {}): Promise<EngineHarness> {
  clock = new ManualClock(start);
  h = await startEngines([idleRulesFeature], config, { clock });
  return h;
}

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await h!.t.post('/api/v2/idle-rule', { name: 'rule', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { _id: string })._id;
}

const steps = (alarm: { v: { steps: { _t: string }[] } } | undefined, type: string) => alarm?.v.steps.filter((s) => s._t === type) ?? [];
const byEntity = (alarms: { d: string }[], d: string) => alarms.find((a) => a.d === d) as { d: string; v: { steps: { _t: string }[]; [k: string]: any } } | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

describe('idle rules', () => {
  it('applies a last_event rule to the matching alarms idle for the duration, once per idle period', async () => {
    await begin();
    await rule({ type: 'last_event', duration: '3m', operation: { type: 'ack', parameters: { author: 'idle', output: 'quiet' } }, alarm_patterns: [{ v: { resource: { regex_match: 'disk' } } }] });
    await h!.send(check(), check({ resource: 'cpu' }));
    clock.advance(2 * 60_000);
    // An event 2 minutes in starts a new idle period for the disk.
    await h!.send(check());
    clock.advance(2 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(steps(byEntity(await h!.alarms(), 'disk/host'), 'ack')).toHaveLength(0);
    clock.advance(60_000);
    const alarms = await h!.eventually((found) => steps(byEntity(found, 'disk/host'), 'ack').length === 1);
    expect(byEntity(alarms, 'disk/host')!.v.ack).toMatchObject({ a: 'idle', m: 'quiet', initiator: 'system' });
    // The cpu alarm is idle too, but its resource does not match the pattern.
    expect(byEntity(alarms, 'cpu/host')!.v.ack).toBeUndefined();
    // Still idle: the rule does not fire again until an event starts a new idle period.
    clock.advance(10 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(steps(byEntity(await h!.alarms(), 'disk/host'), 'ack')).toHaveLength(1);
    await h!.send(check());
    clock.advance(3 * 60_000);
    await h!.eventually((found) => steps(byEntity(found, 'disk/host'), 'ack').length === 2);
  });

  it('applies a last_update rule once the alarm has not changed for the duration', async () => {
    await begin();
    await rule({ type: 'last_update', duration: '2m', operation: { type: 'ack', parameters: {} } });
    await h!.send(check());
    clock.advance(60_000);
    // A new state is an update: the idle period starts again.
    await h!.send(check({ state: 3 }));
    clock.advance(90_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(byEntity(await h!.alarms(), 'disk/host')!.v.ack).toBeUndefined();
    clock.advance(30_000);
    const [alarm] = await h!.eventually((found) => byEntity(found, 'disk/host')?.v.ack !== undefined);
    expect(alarm!.v.ack).toMatchObject({ a: 'system', t: start / 1000 + 180 });
  });

  it('applies each operation type, with entity patterns', async () => {
    await begin();
    const operations: [string, Record<string, unknown>][] = [
      ['assocticket', { ticket: 'T-9' }],
      ['declareticket', {}],
      ['changestate', { state: 3, output: 'worse' }],
      ['snooze', { duration: 3600 }],
      ['pbehavior', { name: 'idle pause', type: 'Pause', start_on_trigger: true, duration: { seconds: 600, unit: 'm' } }],
      ['cancel', { output: 'idle too long' }],
    ];
    for (const [type, parameters] of operations) {
      await rule({ name: type, type: 'last_event', duration: '1m', operation: { type, parameters }, entity_patterns: [{ type: 'resource' }] });
    }
    await h!.send(check(), { ...check(), source_type: 'component', resource: undefined });
    clock.advance(61_000);
    const alarms = await h!.eventually((found) => operations.every(([type]) => type === 'pbehavior' || steps(byEntity(found, 'disk/host'), type).length === 1));
    const disk = byEntity(alarms, 'disk/host')!;
    expect(steps(disk, 'assocticket')).toMatchObject([{ val: 'T-9' }]);
    expect(steps(disk, 'changestate')).toMatchObject([{ val: 3, m: 'worse' }]);
    expect(disk.v.snooze).toMatchObject({ val: start / 1000 + 61 + 3600 });
    expect(disk.v.canceled).toMatchObject({ m: 'idle too long' });
    expect((await h!.t.get('/api/v2/pbehavior_byeid/disk/host')).body).toMatchObject([{ name: 'idle pause', type_: 'Pause', tstart: start / 1000 + 61, tstop: start / 1000 + 661 }]);
    // The component does not match the entity pattern.
    expect(byEntity(alarms, 'host')!.v.canceled).toBeUndefined();
  });

  it('does nothing, and logs why, for a rule that cannot apply or an operation that changes nothing', async () => {
    await begin();
    await rule({ name: 'unacks', type: 'last_event', duration: '1m', operation: { type: 'ackremove', parameters: {} } });
    await rule({ name: 'never', type: 'last_event', duration: '1m', operation: { type: 'ack', parameters: {} }, alarm_patterns: [{ v: { state: { val: 9 } } }] });
    const typo = await rule({ name: 'typo', type: 'last_event', duration: '1m', operation: { type: 'ack', parameters: {} }, alarm_patterns: [{ v: { stat: { val: 2 } } }] });
    await h!.send(check());
    clock.advance(61_000);
    expect(await h!.logged('rule operation did nothing')).toContain('the alarm is not acknowledged');
    const skipped = await h!.logged('idle rule skipped: it cannot be applied');
    expect(skipped).toContain(typo);
    expect(skipped).toContain('alarm_patterns[0].v');
    expect(byEntity(await h!.alarms(), 'disk/host')!.v.ack).toBeUndefined();
  });
});
