import { describe, expect, it } from 'vitest';
import { AlarmStatus, type Alarm } from './alarm.js';
import { alarmsConfigSchema, lifecycleSettings } from './config.js';
import { applyOperation, resolutionDue, type AlarmOperation, type LifecycleEnvironment, type LifecycleSettings } from './lifecycle.js';

/** The `[alarms]` defaults. */
const defaults: LifecycleSettings = lifecycleSettings(alarmsConfigSchema.cast({}));

let now = 1_000_000;
function env(settings: Partial<LifecycleSettings> = {}): LifecycleEnvironment {
  return { entityId: 'cpu/web', nowSec: now, settings: { ...defaults, ...settings }, newId: () => 'alarm-1', displayName: () => 'AB-CD-EF' };
}

const origin = { connector: 'nagios', connector_name: 'n1', component: 'web', resource: 'cpu' };
const check = (state: number, output = `state ${state}`, extra: Partial<AlarmOperation> = {}): AlarmOperation => ({
  type: 'check',
  state,
  output,
  author: 'nagios.n1',
  timestamp: now,
  origin,
  ...extra,
});

function run(current: Alarm | null, operation: AlarmOperation, settings?: Partial<LifecycleSettings>) {
  const result = applyOperation(current, operation, env(settings));
  if (!result.changed) throw new Error(`unchanged: ${result.reason}`);
  return result;
}

function unchanged(current: Alarm | null, operation: AlarmOperation, settings?: Partial<LifecycleSettings>): string {
  const result = applyOperation(current, operation, env(settings));
  if (result.changed) throw new Error('expected no change');
  return result.reason;
}

describe('alarm lifecycle', () => {
  it('creates nothing on an OK check and an alarm on a non-OK one', () => {
    expect(unchanged(null, check(0))).toMatch(/OK check/);
    const { alarm, created, triggers } = run(null, check(2, 'disk full', { longOutput: 'details' }));
    expect(created).toBe(true);
    expect(triggers).toEqual(['create']);
    expect(alarm).toMatchObject({ _id: 'alarm-1', t: now, d: 'cpu/web' });
    expect(alarm.v).toMatchObject({
      state: { _t: 'stateinc', val: 2, a: 'nagios.n1', m: 'disk full' },
      status: { _t: 'statusinc', val: AlarmStatus.ongoing },
      connector: 'nagios',
      connector_name: 'n1',
      component: 'web',
      resource: 'cpu',
      display_name: 'AB-CD-EF',
      initial_output: 'disk full',
      output: 'disk full',
      long_output: 'details',
      long_output_history: ['details'],
      creation_date: now,
      last_update_date: now,
      total_state_changes: 1,
      state_changes_since_status_update: 0,
    });
    expect(alarm.v.steps.map((s) => s._t)).toEqual(['stateinc', 'statusinc']);
  });

  it('records state and status changes with their triggers, and updates the output', () => {
    const { alarm } = run(null, check(1));
    const worse = run(alarm, check(3, 'worse'));
    expect(worse.triggers).toEqual(['stateinc']);
    expect(worse.alarm.v.state.val).toBe(3);
    expect(worse.alarm.v.output).toBe('worse');
    expect(worse.alarm.v.initial_output).toBe('state 1');
    const ok = run(worse.alarm, check(0, 'fine'));
    expect(ok.triggers).toEqual(['statedec', 'statusdec']);
    expect(ok.alarm.v.status.val).toBe(AlarmStatus.off);
    expect(ok.alarm.v.state_changes_since_status_update).toBe(0);
    expect(ok.alarm.v.total_state_changes).toBe(3);
    // The original alarm object is untouched (copy on write).
    expect(alarm.v.steps).toHaveLength(2);
  });

  it('changes only the output on a same-state check, and nothing on an identical one', () => {
    const { alarm } = run(null, check(2, 'a'));
    const same = run(alarm, check(2, 'b'));
    expect(same.triggers).toEqual([]);
    expect(same.alarm.v.steps).toHaveLength(2);
    expect(unchanged(same.alarm, check(2, 'b'))).toMatch(/changes nothing/);
  });

  it('keeps last_event_date at creation unless enable_last_event_date', () => {
    const { alarm } = run(null, check(2));
    now += 10;
    expect(run(alarm, check(2, 'x')).alarm.v.last_event_date).toBe(now - 10);
    expect(run(alarm, check(2, 'x'), { enableLastEventDate: true }).alarm.v.last_event_date).toBe(now);
  });

  it('locks the state after changestate until an OK check', () => {
    const { alarm } = run(null, check(3));
    const changed = run(alarm, { type: 'changestate', state: 1, author: 'bob', output: 'calm down' });
    expect(changed.triggers).toEqual(['changestate']);
    expect(changed.alarm.v.state).toMatchObject({ _t: 'changestate', val: 1, a: 'bob' });
    const still = run(changed.alarm, check(3, 'again'));
    expect(still.alarm.v.state.val).toBe(1);
    expect(still.triggers).toEqual([]);
    const ok = run(still.alarm, check(0));
    expect(ok.alarm.v.state.val).toBe(0);
    expect(ok.triggers).toEqual(['statedec', 'statusdec']);
  });

  it('counts state changes past 20 in one statecounter step', () => {
    let { alarm } = run(null, check(1));
    for (let i = 0; i < 30; i++) alarm = run(alarm, check(i % 2 === 0 ? 3 : 1)).alarm;
    const types = alarm.v.steps.map((s) => s._t);
    expect(types.filter((t) => t === 'stateinc' || t === 'statedec')).toHaveLength(1 + 20);
    expect(types.at(-1)).toBe('statecounter');
    expect(alarm.v.steps.at(-1)).toMatchObject({ val: 10, statecounter: { statechanges: 10, stateinc: 5, statedec: 5 } });
    expect(alarm.v.total_state_changes).toBe(31);
  });

  it('keeps at most 2000 steps, the first one included', () => {
    let { alarm } = run(null, check(2));
    for (let i = 0; i < 2100; i++) alarm = run(alarm, { type: 'comment', author: 'bob', output: `c${i}` }).alarm;
    expect(alarm.v.steps).toHaveLength(2000);
    expect(alarm.v.steps[0]!._t).toBe('stateinc');
    expect(alarm.v.steps.at(-1)!.m).toBe('c2099');
  });

  it('acknowledges and removes the acknowledgement', () => {
    const { alarm } = run(null, check(2));
    expect(unchanged(alarm, { type: 'ackremove' })).toMatch(/not acknowledged/);
    const acked = run(alarm, { type: 'ack', author: 'bob', output: 'mine' });
    expect(acked.triggers).toEqual(['ack']);
    expect(acked.alarm.v.ack).toMatchObject({ _t: 'ack', a: 'bob', m: 'mine' });
    const removed = run(acked.alarm, { type: 'ackremove', author: 'bob' });
    expect(removed.alarm.v.ack).toBeUndefined();
    expect(removed.triggers).toEqual(['ackremove']);
  });

  it('cancels (status cancelled) and uncancels', () => {
    const { alarm } = run(null, check(2));
    const cancelled = run(alarm, { type: 'cancel', author: 'bob' });
    expect(cancelled.triggers).toEqual(['cancel', 'statusinc']);
    expect(cancelled.alarm.v.status.val).toBe(AlarmStatus.cancelled);
    const back = run(cancelled.alarm, { type: 'uncancel', author: 'bob' });
    expect(back.triggers).toEqual(['uncancel', 'statusdec']);
    expect(back.alarm.v.status.val).toBe(AlarmStatus.ongoing);
    expect(back.alarm.v.canceled).toBeUndefined();
  });

  it('resolves after baggot_time of OK, the cancel delay or the done delay', () => {
    const start = now;
    const { alarm } = run(null, check(2));
    const ok = run(alarm, check(0)).alarm;
    expect(resolutionDue(ok, { nowSec: start + 59, settings: defaults })).toBeNull();
    expect(resolutionDue(ok, { nowSec: start + 60, settings: defaults })).toBe('baggot');
    const cancelled = run(alarm, { type: 'cancel' }).alarm;
    expect(resolutionDue(cancelled, { nowSec: start + 3599, settings: defaults })).toBeNull();
    expect(resolutionDue(cancelled, { nowSec: start + 3600, settings: defaults })).toBe('cancel');
    const done = run(alarm, { type: 'done' }).alarm;
    expect(resolutionDue(done, { nowSec: start + 900, settings: defaults })).toBe('done');
    expect(unchanged(ok, { type: 'resolve', ifDue: true })).toMatch(/not due/);
    now += 60;
    const resolved = run(ok, { type: 'resolve', ifDue: true });
    expect(resolved.triggers).toEqual(['resolve']);
    expect(resolved.alarm.v.resolved).toBe(now);
  });

  it('snoozes until an end and unsnoozes when due', () => {
    const { alarm } = run(null, check(2));
    const snoozed = run(alarm, { type: 'snooze', duration: 600, author: 'bob' });
    expect(snoozed.alarm.v.snooze).toMatchObject({ _t: 'snooze', val: now + 600 });
    expect(unchanged(snoozed.alarm, { type: 'unsnooze', ifDue: true })).toMatch(/not ended/);
    expect(unchanged(alarm, { type: 'snooze', duration: 0 })).toMatch(/duration/);
    now += 600;
    const woken = run(snoozed.alarm, { type: 'unsnooze', ifDue: true });
    expect(woken.triggers).toEqual(['unsnooze']);
    expect(woken.alarm.v.snooze).toBeUndefined();
  });

  it('associates and declares tickets, comments and marks done', () => {
    const { alarm } = run(null, check(2));
    expect(run(alarm, { type: 'assocticket', ticket: 'INC-1', author: 'bob' }).alarm.v.ticket).toMatchObject({ _t: 'assocticket', val: 'INC-1' });
    expect(run(alarm, { type: 'declareticket', author: 'bob' }).triggers).toEqual(['declareticket']);
    expect(run(alarm, { type: 'comment', output: 'hello' }).triggers).toEqual(['comment']);
    const done = run(alarm, { type: 'done' });
    expect(done.alarm.v.done).toMatchObject({ _t: 'done' });
    expect(unchanged(done.alarm, { type: 'done' })).toMatch(/already done/);
  });

  it('refuses operations without an open alarm', () => {
    expect(unchanged(null, { type: 'ack' })).toMatch(/no open alarm/);
  });

  it('flaps past flapping_freq_limit changes within flapping_interval', () => {
    const settings = { flappingFreqLimit: 2, flappingIntervalSec: 60 };
    let { alarm } = run(null, check(1), settings);
    alarm = run(alarm, check(3), settings).alarm;
    expect(alarm.v.status.val).toBe(AlarmStatus.ongoing);
    const flapping = run(alarm, check(1), settings);
    expect(flapping.alarm.v.status.val).toBe(AlarmStatus.flapping);
    expect(flapping.triggers).toEqual(['statedec', 'statusinc']);
  });

  it('is stealthy when back to OK within stealthy_interval, off when the interval is 0', () => {
    const { alarm } = run(null, check(2));
    expect(run(alarm, check(0)).alarm.v.status.val).toBe(AlarmStatus.off);
    expect(run(alarm, check(0), { stealthyIntervalSec: 300 }).alarm.v.status.val).toBe(AlarmStatus.stealthy);
  });
});

describe('pbehaviors on alarms (pbhenter, pbhleave)', () => {
  const maintenance = { id: 'pbh-1', name: 'night works', reason: 'upgrade', type: 'Maintenance', type_name: 'Maintenance', canonical_type: 'maintenance' };
  const pause = { id: 'pbh-2', name: 'pause', reason: '', type: 'Pause', type_name: 'Pause', canonical_type: 'pause' };

  it('enters a pbehavior at the given time and leaves it, without trigger', () => {
    const { alarm } = run(null, check(2));
    const entered = run(alarm, { type: 'pbhenter', pbehaviorInfo: maintenance, timestamp: now - 30, author: 'system' });
    expect(entered.triggers).toEqual([]);
    expect(entered.alarm.v.pbehavior_info).toEqual({ timestamp: now - 30, ...maintenance });
    expect(entered.alarm.v.last_update_date).toBe(alarm.v.last_update_date);
    expect(entered.alarm.v.steps.at(-1)).toMatchObject({
      _t: 'pbhenter',
      t: now - 30,
      a: 'system',
      m: 'Pbehavior night works. Type: Maintenance. Reason: upgrade',
      initiator: 'system',
      pbehavior_canonical_type: 'maintenance',
    });
    expect(unchanged(entered.alarm, { type: 'pbhenter', pbehaviorInfo: maintenance })).toMatch(/already under pbehavior pbh-1/);
    expect(unchanged(entered.alarm, { type: 'pbhleave', pbehaviorId: 'pbh-2' })).toMatch(/under pbehavior pbh-1, not pbh-2/);
    const left = run(entered.alarm, { type: 'pbhleave', pbehaviorId: 'pbh-1', timestamp: now + 60 });
    expect(left.alarm.v.pbehavior_info).toBeUndefined();
    expect(left.alarm.v.steps.at(-1)).toMatchObject({ _t: 'pbhleave', t: now + 60, m: 'Pbehavior night works. Type: Maintenance. Reason: upgrade' });
    expect(unchanged(left.alarm, { type: 'pbhleave' })).toMatch(/under no pbehavior/);
    expect(unchanged(alarm, { type: 'pbhenter' })).toMatch(/needs the pbehavior/);
    expect(unchanged(null, { type: 'pbhenter', pbehaviorInfo: maintenance })).toMatch(/no open alarm/);
  });

  it('leaves the current pbehavior before entering another one', () => {
    const { alarm } = run(null, check(2));
    const first = run(alarm, { type: 'pbhenter', pbehaviorInfo: maintenance }).alarm;
    const second = run(first, { type: 'pbhenter', pbehaviorInfo: pause });
    expect(second.alarm.v.steps.slice(-2).map((step) => [step._t, step.pbehavior_canonical_type])).toEqual([
      ['pbhleave', 'maintenance'],
      ['pbhenter', 'pause'],
    ]);
    expect(second.alarm.v.pbehavior_info?.id).toBe('pbh-2');
  });

  it('keeps a snooze that ended while under a pbehavior, unless configured not to', () => {
    const { alarm } = run(null, check(2));
    const snoozed = run(alarm, { type: 'snooze', duration: 60 }).alarm;
    const paused = run(snoozed, { type: 'pbhenter', pbehaviorInfo: pause }).alarm;
    now += 120;
    expect(unchanged(paused, { type: 'unsnooze', ifDue: true })).toMatch(/waits for the end of pbehavior pbh-2/);
    expect(run(paused, { type: 'unsnooze', ifDue: true }, { snoozeIgnoresPbehavior: true }).triggers).toEqual(['unsnooze']);
    const left = run(paused, { type: 'pbhleave' }).alarm;
    expect(run(left, { type: 'unsnooze', ifDue: true }).triggers).toEqual(['unsnooze']);
  });
});

describe('meta-alarm operations', () => {
  const metaOrigin = { connector: 'engine', connector_name: 'correlation', component: 'metaalarm', resource: 'meta-alarm-entity-1' };
  const meta = (extra: Partial<AlarmOperation> = {}): AlarmOperation => ({
    type: 'metaalarm',
    metaRule: 'rule-1',
    children: ['a/host', 'b/host'],
    state: 2,
    output: '2 alarms',
    author: 'engine.correlation',
    initiator: 'system',
    origin: metaOrigin,
    ...extra,
  });

  it('creates a meta-alarm with its rule and children: triggers create then metaalarm', () => {
    const created = run(null, meta());
    expect(created.triggers).toEqual(['create', 'metaalarm']);
    expect(created.alarm.v).toMatchObject({ meta: 'rule-1', children: ['a/host', 'b/host'], component: 'metaalarm', output: '2 alarms', state: { val: 2, a: 'engine.correlation' } });
    expect(unchanged(null, meta({ metaRule: undefined }))).toBe('a meta-alarm needs its rule');
  });

  it('adds only new children (metaalarmupdated), follows the worst state, and changes nothing when all is known', () => {
    const created = run(null, meta()).alarm;
    const updated = run(created, meta({ children: ['b/host', 'c/host'], state: 3, output: '3 alarms' }));
    expect(updated.alarm.v.children).toEqual(['a/host', 'b/host', 'c/host']);
    expect(updated.triggers).toEqual(['metaalarmupdated', 'stateinc']);
    expect(updated.alarm.v.output).toBe('3 alarms');
    expect(unchanged(updated.alarm, meta({ children: ['c/host'], state: 3, output: '3 alarms' }))).toBe('the meta-alarm already has these children, output and state');
    const lowered = run(updated.alarm, { type: 'metaalarm', state: 1, author: 'engine.correlation' });
    expect(lowered.triggers).toEqual(['statedec']);
  });

  it('turns an open alarm into a meta-alarm (relation): trigger metaalarm', () => {
    const component = run(null, check(2)).alarm;
    const turned = run(component, meta({ children: ['disk/web'] }));
    expect(turned.triggers).toEqual(['metaalarm']);
    expect(turned.alarm.v).toMatchObject({ meta: 'rule-1', children: ['disk/web'], connector: 'nagios' });
  });

  it('attaches a child once: parent and metaalarmattach step, no trigger', () => {
    const child = run(null, check(2)).alarm;
    const attach: AlarmOperation = { type: 'metaalarmattach', parent: 'meta-alarm-entity-1/metaalarm', author: 'engine.correlation', output: 'Rule: {r}' };
    const attached = run(child, attach);
    expect(attached.triggers).toEqual([]);
    expect(attached.alarm.v.parents).toEqual(['meta-alarm-entity-1/metaalarm']);
    expect(attached.alarm.v.steps.at(-1)).toMatchObject({ _t: 'metaalarmattach', a: 'engine.correlation', m: 'Rule: {r}' });
    expect(unchanged(attached.alarm, attach)).toBe('the alarm is already a child of meta-alarm-entity-1/metaalarm');
    expect(unchanged(child, { ...attach, parent: 'cpu/web' })).toBe('an alarm cannot be its own meta-alarm');
  });
});
