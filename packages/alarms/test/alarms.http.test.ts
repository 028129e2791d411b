import { afterEach, describe, expect, it } from 'vitest';
import { event, startAlarms, startSec, type AlarmsHarness } from './harness.js';
import { entityRepositoryRef, type Entity } from '@vigie/context-graph';

let h: AlarmsHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const withSteps = { with_steps: true };

describe('alarm creation and checks', () => {
  it('creates no alarm on an OK check, and one with a state and a status step on a non-OK check', async () => {
    h = await startAlarms();
    await h.send(event({ state: 0, output: 'all good' }));
    expect(await h.alarms()).toEqual([]);
    await h.send(event({ state: 2, output: 'disk full', long_output: 'sda1 at 99%' }));
    const [alarm, ...others] = await h.alarms(withSteps);
    expect(others).toEqual([]);
    expect(alarm).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      t: startSec,
      d: 'disk/host',
      entity: { _id: 'disk/host', type: 'resource' },
      v: {
        state: { _t: 'stateinc', val: 2, a: 'nagios.nagios-1', m: 'disk full', t: startSec },
        status: { _t: 'statusinc', val: 1, a: 'nagios.nagios-1', m: 'disk full' },
        connector: 'nagios',
        connector_name: 'nagios-1',
        component: 'host',
        resource: 'disk',
        initial_output: 'disk full',
        output: 'disk full',
        initial_long_output: 'sda1 at 99%',
        long_output: 'sda1 at 99%',
        long_output_history: ['sda1 at 99%'],
        creation_date: startSec,
        last_update_date: startSec,
        last_event_date: startSec,
        total_state_changes: 1,
        state_changes_since_status_update: 0,
      },
    });
    expect(alarm!.v.display_name).toMatch(/^[A-Z]{2}-[A-Z]{2}-[A-Z]{2}$/);
    expect(alarm!.v.steps.map((s: { _t: string }) => s._t)).toEqual(['stateinc', 'statusinc']);
    expect(alarm!.v.resolved).toBeUndefined();
    expect(h.triggers).toEqual(['create disk/host']);
  });

  it('creates a component alarm without resource', async () => {
    h = await startAlarms();
    await h.send(event({ source_type: 'component', resource: undefined, state: 3 }));
    const [alarm] = await h.alarms();
    expect(alarm).toMatchObject({ d: 'host', v: { component: 'host', state: { val: 3 } } });
    expect(alarm!.v).not.toHaveProperty('resource');
  });

  it('records stateinc/statedec and statusinc/statusdec steps with their triggers; keeps one open alarm per entity', async () => {
    h = await startAlarms();
    await h.send(event({ state: 1, output: 'warn' }));
    h.clock.advance(5000);
    await h.send(event({ state: 3, output: 'crit', timestamp: startSec + 5 }));
    await h.send(event({ state: 0, output: 'ok', timestamp: startSec + 6 }));
    const all = await h.alarms(withSteps);
    expect(all).toHaveLength(1);
    const v = all[0]!.v;
    expect(v.steps.map((s: { _t: string; val: number }) => `${s._t}:${s.val}`)).toEqual(['stateinc:1', 'statusinc:1', 'stateinc:3', 'statedec:0', 'statusdec:0']);
    expect(v.state).toMatchObject({ _t: 'statedec', val: 0, a: 'nagios.nagios-1', m: 'ok', t: startSec + 6 });
    expect(v.status).toMatchObject({ _t: 'statusdec', val: 0 });
    expect(v).toMatchObject({ output: 'ok', initial_output: 'warn', total_state_changes: 3, state_changes_since_status_update: 0, last_update_date: startSec + 6 });
    expect(h.triggers).toEqual(['create disk/host', 'stateinc disk/host', 'statedec disk/host', 'statusdec disk/host']);
  });

  it('updates output and long_output only from checks, and keeps the long output history', async () => {
    h = await startAlarms();
    await h.send(event({ output: 'first', long_output: 'l1' }));
    await h.send(event({ output: 'second', long_output: 'l2' }));
    await h.send(event({ event_type: 'ack', output: 'taking it', long_output: 'l3' }));
    await h.send(event({ event_type: 'comment', output: 'a comment' }));
    const [alarm] = await h.alarms();
    expect(alarm!.v).toMatchObject({ output: 'second', long_output: 'l2', long_output_history: ['l1', 'l2'], initial_output: 'first' });
  });

  it('refreshes last_event_date on each event only with enable_last_event_date', async () => {
    h = await startAlarms();
    await h.send(event({ output: 'a' }));
    await h.send(event({ output: 'b', timestamp: startSec + 30 }));
    expect((await h.alarms())[0]!.v.last_event_date).toBe(startSec);
    await h.stop();
    h = await startAlarms({ enable_last_event_date: 'true' });
    await h.send(event({ output: 'a' }));
    await h.send(event({ output: 'b', timestamp: startSec + 30 }));
    expect((await h.alarms())[0]!.v.last_event_date).toBe(startSec + 30);
  });

  it('gives a disabled entity no alarm', async () => {
    h = await startAlarms();
    await h.send(event({ state: 0 }));
    const repository = h.t.kernel
      .scope('context-graph')
      .resolve(entityRepositoryRef);
    const draft = await repository.draft(['disk/host']);
    draft.put({ ...(draft.get('disk/host') as Entity), enabled: false });
    await repository.commit(draft.changes());
    await h.sendSome(1, event({ state: 3 }), event({ resource: 'cpu', state: 3 }));
    expect((await h.alarms()).map((a) => a.d)).toEqual(['cpu/host']);
  });
});

describe('status rules', () => {
  it('is flapping past flapping_freq_limit state changes within flapping_interval', async () => {
    h = await startAlarms({ flapping_freq_limit: '2', flapping_interval: '1h' });
    await h.send(event({ state: 1 }), event({ state: 3 }));
    expect((await h.alarms())[0]!.v.status.val).toBe(1);
    await h.send(event({ state: 1 }));
    const [alarm] = await h.alarms();
    expect(alarm!.v.status).toMatchObject({ _t: 'statusinc', val: 3 });
    expect(h.triggers.slice(-2)).toEqual(['statedec disk/host', 'statusinc disk/host']);
    // Once the changes are older than the interval, the beat brings the status back.
    h.clock.advance(3601_000);
    await h.eventually({}, (alarms) => alarms[0]?.v.status.val === 1);
  });

  it('is stealthy when back to OK within stealthy_interval, then off', async () => {
    h = await startAlarms({ stealthy_interval: '5m' });
    await h.send(event({ state: 2 }));
    await h.send(event({ state: 0 }));
    expect((await h.alarms())[0]!.v.status).toMatchObject({ _t: 'statusinc', val: 2 });
    h.clock.advance(301_000);
    const [alarm] = await h.eventually({}, (alarms) => alarms[0]?.v.status.val === 0);
    expect(alarm!.v.status._t).toBe('statusdec');
  });

  it('goes off at state 0 and ongoing otherwise with the default knobs (no flapping, no stealthy)', async () => {
    h = await startAlarms();
    await h.send(event({ state: 1 }), event({ state: 3 }), event({ state: 1 }), event({ state: 0 }));
    expect((await h.alarms())[0]!.v.status.val).toBe(0);
    await h.send(event({ state: 2 }));
    expect((await h.alarms())[0]!.v.status.val).toBe(1);
  });
});

describe('resolution', () => {
  it('resolves after baggot_time of OK (beat), and a later non-OK check opens a new alarm', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }));
    await h.send(event({ state: 0 }));
    h.clock.advance(59_000);
    await h.beat();
    expect(await h.alarms()).toHaveLength(1);
    h.clock.advance(2000);
    await h.eventually({}, (alarms) => alarms.length === 0);
    const [resolved] = await h.alarms({ opened: false, resolved: true });
    expect(resolved!.v.resolved).toBe(startSec + 61);
    expect(h.triggers).toContain('resolve disk/host');
    await h.send(event({ state: 3, timestamp: startSec + 70 }));
    const [reopened] = await h.alarms();
    expect(reopened!._id).not.toBe(resolved!._id);
    expect(await h.alarms({ opened: true, resolved: true })).toHaveLength(2);
  });

  it('does not resolve an alarm that went back to non-OK before baggot_time', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }), event({ state: 0 }));
    h.clock.advance(30_000);
    await h.send(event({ state: 2, timestamp: startSec + 30 }));
    h.clock.advance(120_000);
    await h.beat();
    expect(await h.alarms()).toHaveLength(1);
  });

  it('cancels (status cancelled), resolves after cancel_autosolve_delay keeping the state; uncancel restores the status', async () => {
    h = await startAlarms({ cancel_autosolve_delay: '10m' });
    await h.send(event({ state: 2 }));
    await h.send(event({ event_type: 'cancel', output: 'false positive' }));
    let [alarm] = await h.alarms();
    expect(alarm!.v.canceled).toMatchObject({ _t: 'cancel', a: 'root', m: 'false positive' });
    expect(alarm!.v.status).toMatchObject({ _t: 'statusinc', val: 4 });
    await h.send(event({ event_type: 'uncancel', output: 'oops' }));
    [alarm] = await h.alarms();
    expect(alarm!.v.canceled).toBeUndefined();
    expect(alarm!.v.status).toMatchObject({ _t: 'statusdec', val: 1 });
    await h.send(event({ event_type: 'cancel', output: 'really' }));
    h.clock.advance(599_000);
    await h.beat();
    expect(await h.alarms()).toHaveLength(1);
    h.clock.advance(1000);
    await h.eventually({}, (alarms) => alarms.length === 0);
    const [resolved] = await h.alarms({ opened: false, resolved: true });
    expect(resolved!.v.state.val).toBe(2);
    expect(h.triggers.filter((x) => !x.startsWith('status'))).toEqual(['create disk/host', 'cancel disk/host', 'uncancel disk/host', 'cancel disk/host', 'resolve disk/host']);
  });

  it('resolves a done alarm after done_autosolve_delay', async () => {
    h = await startAlarms({ done_autosolve_delay: '15m' });
    await h.send(event({ state: 2 }), event({ event_type: 'done', output: 'fixed' }));
    expect((await h.alarms())[0]!.v.done).toMatchObject({ _t: 'done', m: 'fixed' });
    h.clock.advance(900_000);
    await h.eventually({}, (alarms) => alarms.length === 0);
    expect(h.triggers).toEqual(['create disk/host', 'done disk/host', 'resolve disk/host']);
  });

  it('deletes alarms resolved longer than resolved_retention ago', async () => {
    h = await startAlarms({ resolved_retention: '1d', baggot_time: '1s' });
    await h.send(event({ state: 2 }), event({ state: 0 }));
    h.clock.advance(2000);
    await h.eventually({ opened: false, resolved: true }, (alarms) => alarms.length === 1);
    h.clock.advance(86_399_000);
    await h.beat();
    expect(await h.alarms({ opened: false, resolved: true })).toHaveLength(1);
    h.clock.advance(1000);
    await h.eventually({ opened: false, resolved: true }, (alarms) => alarms.length === 0);
  });
});

describe('operations', () => {
  it('acknowledges and removes the acknowledgement', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }), event({ event_type: 'ack', output: 'on it' }));
    const [acked] = await h.alarms(withSteps);
    expect(acked!.v.ack).toMatchObject({ _t: 'ack', a: 'root', m: 'on it' });
    await h.send(event({ event_type: 'ackremove', output: 'not mine' }));
    const [removed] = await h.alarms(withSteps);
    expect(removed!.v.ack).toBeUndefined();
    expect(removed!.v.steps.map((s: { _t: string }) => s._t)).toEqual(['stateinc', 'statusinc', 'ack', 'ackremove']);
    expect(h.triggers).toEqual(['create disk/host', 'ack disk/host', 'ackremove disk/host']);
  });

  it('acks the open alarms of a component’s resources with ack_resources', async () => {
    h = await startAlarms();
    await h.send(
      event({ resource: 'disk', state: 2 }),
      event({ resource: 'cpu', state: 3 }),
      event({ resource: 'ram', state: 0 }),
      event({ source_type: 'component', resource: undefined, state: 2 }),
      event({ component: 'other', resource: 'disk', state: 2 }),
    );
    await h.send(event({ event_type: 'ack', source_type: 'component', resource: undefined, ack_resources: true, output: 'all of it' }));
    const acked = Object.fromEntries((await h.alarms()).map((a) => [a.d, a.v.ack?.m ?? null]));
    expect(acked).toEqual({ 'disk/host': 'all of it', 'cpu/host': 'all of it', host: 'all of it', 'disk/other': null });
  });

  it('associates and declares tickets (v.ticket)', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }), event({ event_type: 'assocticket', ticket: 'INC-42', output: 'linked' }));
    expect((await h.alarms())[0]!.v.ticket).toMatchObject({ _t: 'assocticket', val: 'INC-42', a: 'root', m: 'linked' });
    await h.send(event({ event_type: 'declareticket', output: 'declare please' }));
    expect((await h.alarms())[0]!.v.ticket).toMatchObject({ _t: 'declareticket', m: 'declare please' });
    expect(h.triggers).toEqual(['create disk/host', 'assocticket disk/host', 'declareticket disk/host']);
  });

  it('snoozes until its end; the beat unsnoozes it then; an unsnooze event ends it at once', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }), event({ event_type: 'snooze', duration: 600, output: 'later' }));
    expect((await h.alarms())[0]!.v.snooze).toMatchObject({ _t: 'snooze', val: startSec + 600, m: 'later' });
    h.clock.advance(600_000);
    const [woken] = await h.eventually({}, (alarms) => alarms[0]?.v.snooze === undefined);
    expect(woken).toBeDefined();
    expect(h.triggers).toEqual(['create disk/host', 'snooze disk/host', 'unsnooze disk/host']);
    await h.send(event({ event_type: 'snooze', duration: 600 }), event({ event_type: 'unsnooze' }));
    expect((await h.alarms())[0]!.v.snooze).toBeUndefined();
  });

  it('changestate locks the state: later non-OK checks keep it, an OK check changes it', async () => {
    h = await startAlarms();
    await h.send(event({ state: 3 }), event({ event_type: 'changestate', state: 1, output: 'not that bad' }));
    let [alarm] = await h.alarms();
    expect(alarm!.v.state).toMatchObject({ _t: 'changestate', val: 1, a: 'root', m: 'not that bad' });
    await h.send(event({ state: 3, output: 'still critical' }));
    [alarm] = await h.alarms();
    expect(alarm!.v.state.val).toBe(1);
    expect(alarm!.v.output).toBe('still critical');
    await h.send(event({ state: 0 }));
    [alarm] = await h.alarms();
    expect(alarm!.v.state).toMatchObject({ _t: 'statedec', val: 0 });
    expect(h.triggers).toEqual(['create disk/host', 'changestate disk/host', 'statedec disk/host', 'statusdec disk/host']);
  });

  it('keepstate locks the state too', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }), event({ event_type: 'keepstate', state: 2 }), event({ state: 3 }));
    expect((await h.alarms())[0]!.v.state).toMatchObject({ _t: 'changestate', val: 2 });
  });

  it('adds comment steps', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }), event({ event_type: 'comment', output: 'looking' }));
    const [alarm] = await h.alarms(withSteps);
    expect(alarm!.v.steps.at(-1)).toMatchObject({ _t: 'comment', a: 'root', m: 'looking' });
    expect(h.triggers).toEqual(['create disk/host', 'comment disk/host']);
  });

  it('ignores operations on an entity without an open alarm', async () => {
    h = await startAlarms();
    await h.send(event({ event_type: 'ack' }), event({ event_type: 'cancel' }));
    expect(await h.alarms({ opened: true, resolved: true })).toEqual([]);
    expect(h.triggers).toEqual([]);
  });
});

describe('step limits', () => {
  it('counts state changes past 20 in a statecounter step', async () => {
    h = await startAlarms();
    await h.send(...Array.from({ length: 31 }, (_, i) => event({ state: i % 2 === 0 ? 1 : 3 })));
    const [alarm] = await h.alarms(withSteps);
    const types: string[] = alarm!.v.steps.map((s: { _t: string }) => s._t);
    expect(types.filter((x) => x === 'stateinc' || x === 'statedec')).toHaveLength(21);
    expect(alarm!.v.steps.at(-1)).toMatchObject({ _t: 'statecounter', val: 10, statecounter: { statechanges: 10, stateinc: 5, statedec: 5 } });
    expect(alarm!.v.total_state_changes).toBe(31);
  });

  it('keeps at most 2000 steps', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }), ...Array.from({ length: 2010 }, (_, i) => event({ event_type: 'comment', output: `c${i}` })));
    const [alarm] = await h.alarms(withSteps);
    expect(alarm!.v.steps).toHaveLength(2000);
    expect(alarm!.v.steps.at(-1).m).toBe('c2009');
    // Each of these events rewrites an alarm of up to 2,000 steps: slow on a loaded machine.
  });
});
