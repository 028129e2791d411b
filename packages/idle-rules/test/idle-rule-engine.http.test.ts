// The idle-rule engine end to end: rules through /api/v2/idle-rule, events through /api/v2/event, effects through
// /alerts/get-alarms; an injected clock makes minutes pass, the test runs the beats that apply the rules.
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';
import { idleRulesFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
const engines = engineTests([idleRulesFeature], { start });

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await engines.h.t.post('/api/v2/idle-rule', { name: 'rule', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { _id: string })._id;
}

const steps = (alarm: { v: { steps: { _t: string }[] } } | undefined, type: string) => alarm?.v.steps.filter((s) => s._t === type) ?? [];
const byEntity = (alarms: { d: string }[], d: string) => alarms.find((a) => a.d === d) as { d: string; v: { steps: { _t: string }[]; [k: string]: any } } | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

describe('idle rules', () => {
  it('applies a last_event rule to the matching alarms idle for the duration, once per idle period', async () => {
    await engines.start();
    await rule({ type: 'last_event', duration: '3m', operation: { type: 'ack', parameters: { author: 'idle', output: 'quiet' } }, alarm_patterns: [{ v: { resource: { regex_match: 'disk' } } }] });
    await engines.h.send(check(), check({ resource: 'cpu' }));
    engines.clock.advance(2 * 60_000);
    // An event 2 minutes in starts a new idle period for the disk.
    await engines.h.send(check());
    engines.clock.advance(2 * 60_000);
    await engines.h.beat();
    expect(steps(byEntity(await engines.h.alarms(), 'disk/host'), 'ack')).toHaveLength(0);
    engines.clock.advance(60_000);
    const alarms = await engines.h.eventually((found) => steps(byEntity(found, 'disk/host'), 'ack').length === 1);
    expect(byEntity(alarms, 'disk/host')!.v.ack).toMatchObject({ a: 'idle', m: 'quiet', initiator: 'system' });
    // The cpu alarm is idle too, but its resource does not match the pattern.
    expect(byEntity(alarms, 'cpu/host')!.v.ack).toBeUndefined();
    // Still idle: the rule does not fire again until an event starts a new idle period.
    engines.clock.advance(10 * 60_000);
    await engines.h.beat();
    expect(steps(byEntity(await engines.h.alarms(), 'disk/host'), 'ack')).toHaveLength(1);
    await engines.h.send(check());
    engines.clock.advance(3 * 60_000);
    await engines.h.eventually((found) => steps(byEntity(found, 'disk/host'), 'ack').length === 2);
  });

  it('applies a last_update rule once the alarm has not changed for the duration', async () => {
    await engines.start();
    await rule({ type: 'last_update', duration: '2m', operation: { type: 'ack', parameters: {} } });
    await engines.h.send(check());
    engines.clock.advance(60_000);
    // A new state is an update: the idle period starts again.
    await engines.h.send(check({ state: 3 }));
    engines.clock.advance(90_000);
    await engines.h.beat();
    expect(byEntity(await engines.h.alarms(), 'disk/host')!.v.ack).toBeUndefined();
    engines.clock.advance(30_000);
    const [alarm] = await engines.h.eventually((found) => byEntity(found, 'disk/host')?.v.ack !== undefined);
    expect(alarm!.v.ack).toMatchObject({ a: 'system', t: start / 1000 + 180 });
  });

  it('applies each operation type, with entity patterns', async () => {
    await engines.start();
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
    await engines.h.send(check(), { ...check(), source_type: 'component', resource: undefined });
    engines.clock.advance(61_000);
    const alarms = await engines.h.eventually((found) => operations.every(([type]) => type === 'pbehavior' || steps(byEntity(found, 'disk/host'), type).length === 1));
    const disk = byEntity(alarms, 'disk/host')!;
    expect(steps(disk, 'assocticket')).toMatchObject([{ val: 'T-9' }]);
    expect(steps(disk, 'changestate')).toMatchObject([{ val: 3, m: 'worse' }]);
    expect(disk.v.snooze).toMatchObject({ val: start / 1000 + 61 + 3600 });
    expect(disk.v.canceled).toMatchObject({ m: 'idle too long' });
    expect((await engines.h.t.get('/api/v2/pbehavior_byeid/disk/host')).body).toMatchObject([{ name: 'idle pause', type_: 'Pause', tstart: start / 1000 + 61, tstop: start / 1000 + 661 }]);
    // The component does not match the entity pattern.
    expect(byEntity(alarms, 'host')!.v.canceled).toBeUndefined();
  });

  it('does nothing, and logs why, for a rule that cannot apply or an operation that changes nothing', async () => {
    await engines.start();
    await rule({ name: 'unacks', type: 'last_event', duration: '1m', operation: { type: 'ackremove', parameters: {} } });
    await rule({ name: 'never', type: 'last_event', duration: '1m', operation: { type: 'ack', parameters: {} }, alarm_patterns: [{ v: { state: { val: 9 } } }] });
    const typo = await rule({ name: 'typo', type: 'last_event', duration: '1m', operation: { type: 'ack', parameters: {} }, alarm_patterns: [{ v: { stat: { val: 2 } } }] });
    await engines.h.send(check());
    engines.clock.advance(61_000);
    expect(await engines.h.logged('rule operation did nothing')).toContain('the alarm is not acknowledged');
    const skipped = await engines.h.logged('idle rule skipped: it cannot be applied');
    expect(skipped).toContain(typo);
    expect(skipped).toContain('alarm_patterns[0].v');
    expect(byEntity(await engines.h.alarms(), 'disk/host')!.v.ack).toBeUndefined();
  });
});
