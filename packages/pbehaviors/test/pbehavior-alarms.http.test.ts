// Pbehaviors on alarms end to end: pbehaviors through /api/v2/pbehavior, events through /api/v2/event, effects through
// /alerts/get-alarms; an injected clock moves time, the beats the test runs apply the pbehaviors.
import { describe, expect, it } from 'vitest';
import { check, engineTests, type ListedAlarm } from '@vigie/testkit/engines';

const start = Date.UTC(2025, 0, 1, 12);
const t0 = start / 1000;
const engines = engineTests([], { start });

async function pbehavior(body: Record<string, unknown>): Promise<string> {
  const res = await engines.h.t.post('/api/v2/pbehavior', { name: 'night works', filter: { _id: 'disk/host' }, type_: 'Maintenance', reason: 'upgrade', timezone: 'UTC', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as string;
}

/** Moves the injected clock to `t0 + seconds`. */
function at(seconds: number): void {
  engines.clock.set(start + seconds * 1000);
}

/** Runs the beats at the current (manual) time. */
const beats = () => engines.h.beat();
const disk = (alarms: ListedAlarm[]) => alarms.find((alarm) => alarm.d === 'disk/host');
/** The pbhenter/pbhleave steps of the disk alarm as [type, t − t0]. */
const pbhSteps = (alarms: ListedAlarm[]) =>
  ((disk(alarms)?.v.steps ?? []) as { _t: string; t: number }[]).filter((step) => step._t.startsWith('pbh')).map((step) => [step._t, step.t - t0]);
const stepTypes = (alarms: ListedAlarm[]) => ((disk(alarms)?.v.steps ?? []) as { _t: string }[]).map((step) => step._t);

describe('pbehaviors on alarms', () => {
  it('enters the pbehavior at its start and leaves it at its end, showing it in v.pbehavior_info', async () => {
    await engines.start();
    await engines.h.send(check());
    const id = await pbehavior({ tstart: t0 + 60, tstop: t0 + 600 });
    await beats();
    expect(pbhSteps(await engines.h.alarms())).toEqual([]);

    at(120);
    const entered = await engines.h.eventually((alarms) => pbhSteps(alarms).length === 1);
    expect(pbhSteps(entered)).toEqual([['pbhenter', 60]]);
    expect(disk(entered)!.v.steps.at(-1)).toMatchObject({ a: 'system', m: 'Pbehavior night works. Type: Maintenance. Reason: upgrade', initiator: 'system' });
    // Shown without the steps too.
    const [listed] = await engines.h.alarms({ with_steps: false });
    expect(listed!.v.pbehavior_info).toEqual({
      timestamp: t0 + 60,
      id,
      name: 'night works',
      reason: 'upgrade',
      type: 'Maintenance',
      type_name: 'Maintenance',
      canonical_type: 'maintenance',
    });

    at(700);
    const left = await engines.h.eventually((alarms) => pbhSteps(alarms).length === 2);
    expect(pbhSteps(left)).toEqual([
      ['pbhenter', 60],
      ['pbhleave', 600],
    ]);
    expect(disk(left)!.v.pbehavior_info).toBeUndefined();
  });

  it('enters and leaves each occurrence of a recurring pbehavior at the occurrence boundaries', async () => {
    await engines.start();
    await engines.h.send(check());
    // Hourly, five minutes long, from t0 + 60.
    await pbehavior({ tstart: t0 + 60, tstop: t0 + 360, rrule: 'FREQ=HOURLY' });
    at(120);
    await engines.h.eventually((alarms) => pbhSteps(alarms).length === 1);
    at(400);
    await engines.h.eventually((alarms) => pbhSteps(alarms).length === 2);
    at(3600 + 100);
    await engines.h.eventually((alarms) => pbhSteps(alarms).length === 3);
    at(3600 + 500);
    const alarms = await engines.h.eventually((found) => pbhSteps(found).length === 4);
    expect(pbhSteps(alarms)).toEqual([
      ['pbhenter', 60],
      ['pbhleave', 360],
      ['pbhenter', 3660],
      ['pbhleave', 3960],
    ]);
  });

  it('puts a new alarm under the pbehavior its entity is already under, at its creation', async () => {
    // No beat runs in this test: only the pipeline stage can do it.
    await engines.start();
    // Created before its entity exists: the event that creates the entity puts it in the pbehavior's eids first.
    const id = await pbehavior({ tstart: t0 - 3600, tstop: t0 + 3600, type_: 'Pause', reason: '' });
    at(30);
    await engines.h.send(check());
    const alarms = await engines.h.alarms();
    expect(pbhSteps(alarms)).toEqual([['pbhenter', 30]]);
    expect(disk(alarms)!.v.pbehavior_info).toMatchObject({ id, type: 'Pause', canonical_type: 'pause', timestamp: t0 + 30 });
  });

  it('leaves a pbehavior deleted through the API at the next beat, and moves from one pbehavior to the next at the boundary', async () => {
    await engines.start();
    await engines.h.send(check());
    const first = await pbehavior({ name: 'first', tstart: t0 + 60, tstop: t0 + 300 });
    await pbehavior({ name: 'second', tstart: t0 + 200, tstop: t0 + 900 });
    at(250);
    // Both are active: the one that started first is the alarm's.
    const underFirst = await engines.h.eventually((alarms) => pbhSteps(alarms).length === 1);
    expect(disk(underFirst)!.v.pbehavior_info).toMatchObject({ id: first, name: 'first' });
    at(400);
    const underSecond = await engines.h.eventually((alarms) => pbhSteps(alarms).length === 3);
    expect(pbhSteps(underSecond)).toEqual([
      ['pbhenter', 60],
      ['pbhleave', 300],
      ['pbhenter', 300],
    ]);
    const second = (disk(underSecond)!.v.pbehavior_info as { id: string }).id;
    expect((await engines.h.t.delete(`/api/v2/pbehavior/${second}`)).status).toBe(200);
    const alarms = await engines.h.eventually((found) => pbhSteps(found).length === 4);
    // Deleted at t0 + 400 (the clock stands still): seen and left at the beat.
    expect(pbhSteps(alarms).at(-1)).toEqual(['pbhleave', 400]);
    expect(disk(alarms)!.v.pbehavior_info).toBeUndefined();
  });

  it('leaves a pbehavior whose filter no longer selects the entity, and enters again one whose name changed', async () => {
    await engines.start();
    await engines.h.send(check(), check({ resource: 'cpu' }));
    const id = await pbehavior({ filter: { _id: { $in: ['disk/host', 'cpu/host'] } }, tstart: t0 - 60, tstop: t0 + 3600 });
    await engines.h.eventually((alarms) => alarms.every((alarm) => alarm.v.pbehavior_info !== undefined));
    at(100);
    expect((await engines.h.t.put(`/api/v2/pbehavior/${id}`, { filter: { _id: 'cpu/host' } })).status).toBe(200);
    const alarms = await engines.h.eventually((found) => pbhSteps(found).length === 2);
    expect(pbhSteps(alarms).at(-1)).toEqual(['pbhleave', 100]);
    const cpu = alarms.find((alarm) => alarm.d === 'cpu/host')!;
    expect(cpu.v.pbehavior_info).toMatchObject({ id, name: 'night works' });
    at(200);
    expect((await engines.h.t.put(`/api/v2/pbehavior/${id}`, { name: 'longer works' })).status).toBe(200);
    const renamed = await engines.h.eventually((found) => found.find((alarm) => alarm.d === 'cpu/host')!.v.pbehavior_info?.name === 'longer works');
    const cpuSteps = (renamed.find((alarm) => alarm.d === 'cpu/host')!.v.steps as { _t: string; t: number; m: string }[]).filter((step) => step._t.startsWith('pbh'));
    expect(cpuSteps.map((step) => [step._t, step.t - t0, step.m])).toEqual([
      ['pbhenter', 0, 'Pbehavior night works. Type: Maintenance. Reason: upgrade'],
      ['pbhleave', 200, 'Pbehavior night works. Type: Maintenance. Reason: upgrade'],
      ['pbhenter', 200, 'Pbehavior longer works. Type: Maintenance. Reason: upgrade'],
    ]);
  });

  it('keeps a snooze that ended during a pbehavior until the pbehavior ends', async () => {
    await engines.start();
    await engines.h.send(check(), check({ event_type: 'snooze', duration: 600, output: 'later' }));
    await pbehavior({ tstart: t0 + 60, tstop: t0 + 1200 });
    at(120);
    await engines.h.eventually((alarms) => pbhSteps(alarms).length === 1);
    // The snooze ended at t0 + 600, under the pbehavior.
    at(700);
    await beats();
    const during = await engines.h.alarms();
    expect(disk(during)!.v.snooze).toBeDefined();
    expect(stepTypes(during)).not.toContain('unsnooze');
    at(1300);
    const after = await engines.h.eventually((alarms) => stepTypes(alarms).includes('unsnooze'));
    const types = stepTypes(after);
    expect(types.indexOf('unsnooze')).toBeGreaterThan(types.indexOf('pbhleave'));
    expect(disk(after)!.v.snooze).toBeUndefined();
  });

  it('ends the snooze during the pbehavior with [alarms] disable_action_snooze_delay_on_pbh', async () => {
    await engines.start({ alarms: { disable_action_snooze_delay_on_pbh: 'true' } });
    await engines.h.send(check(), check({ event_type: 'snooze', duration: 600, output: 'later' }));
    await pbehavior({ tstart: t0 + 60, tstop: t0 + 1200 });
    at(120);
    await engines.h.eventually((alarms) => pbhSteps(alarms).length === 1);
    at(700);
    const alarms = await engines.h.eventually((found) => stepTypes(found).includes('unsnooze'));
    expect(disk(alarms)!.v.pbehavior_info).toBeDefined();
  });

  it('does nothing, and says so, for a pbehavior on entities without an open alarm', async () => {
    await engines.start();
    await engines.h.send(check({ state: 0 }), check({ resource: 'cpu' }));
    await pbehavior({ tstart: t0 - 60, tstop: t0 + 600 });
    const line = await engines.h.logged('pbehavior active on entities without an open alarm');
    expect(JSON.parse(line)).toMatchObject({ name: 'night works', entities: 1 });
    await beats();
    const alarms = await engines.h.alarms();
    expect(alarms.map((alarm) => alarm.d)).toEqual(['cpu/host']);
    expect(alarms[0]!.v.pbehavior_info).toBeUndefined();
    expect((alarms[0]!.v.steps as { _t: string }[]).map((step) => step._t)).toEqual(['stateinc', 'statusinc']);
  });

  it('leaves alarms alone under a disabled pbehavior, and says so', async () => {
    await engines.start();
    await engines.h.send(check());
    await pbehavior({ tstart: t0 - 60, tstop: t0 + 600, enabled: false });
    await engines.h.logged('pbehavior active but disabled');
    await beats();
    const alarms = await engines.h.alarms();
    expect(pbhSteps(alarms)).toEqual([]);
    expect(disk(alarms)!.v.pbehavior_info).toBeUndefined();
  });
});
