// The alarm-filter engine end to end: filters through /api/v2/alerts/filters, events through /api/v2/event, effects
// through /alerts/get-alarms and the weather; an injected clock makes time pass, the test runs the beats that run the filters.
import { describe, expect, it } from 'vitest';
import { weatherFeature } from '@vigie/weather';
import { check, engineTests, type ListedAlarm } from '@vigie/testkit/engines';
import { alarmFiltersFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
const startSec = start / 1000;
const engines = engineTests([alarmFiltersFeature, weatherFeature], { start });

async function filter(body: Record<string, unknown>): Promise<string> {
  const res = await engines.h.t.post('/api/v2/alerts/filters', { entity_filter: { 'v.resource': 'disk' }, condition: {}, limit: 600, ...body });
  expect(res.status, res.text).toBe(200);
  return (res.body as { _id: string })._id;
}

const byEntity = (alarms: ListedAlarm[], d: string) => alarms.find((a) => a.d === d);
const steps = (alarm: ListedAlarm | undefined, type?: string): { _t: string; a: string; m: string; val?: unknown; initiator?: string }[] =>
  (alarm?.v.steps ?? []).filter((s: { _t: string }) => type === undefined || s._t === type);
const disk = async () => byEntity(await engines.h.alarms(), 'disk/host');
/** Runs the beats at the current (manual) time, and the events they send through the pipeline. */
const beats = () => engines.h.beat();

describe('alarm-filter tasks', () => {
  it('runs the tasks once, limit seconds after the alarm appeared, as a check built from the alarm; the weather shows the timer', async () => {
    await engines.start();
    await engines.h.t.kernel.store.collection('default_entities').insertOne({
      _id: 'shop', name: 'Web shop', type: 'watcher', enabled: true, infos: {}, depends: ['disk/host'], impact: [], entities: [{ _id: 'disk/host' }],
    });
    const id = await filter({ tasks: ['alerts.useraction.ack', 'alerts.systemaction.state_increase'], output_format: '{old} (escalated)' });
    await engines.h.send(check(), check({ resource: 'cpu' }));
    // The timer: the state's time + limit, on the selected alarm only.
    const planned = await engines.h.eventually((found) => byEntity(found, 'disk/host')?.v.alarmfilter?.next_run === startSec + 600);
    expect(byEntity(planned, 'cpu/host')!.v.alarmfilter).toBeUndefined();
    const dependency = async () => ((await engines.h.t.get('/api/v2/weather/watchers/shop')).body as { entity_id: string; automatic_action_timer?: number | null }[])[0]!;
    expect(await dependency()).toMatchObject({ entity_id: 'disk/host', automatic_action_timer: startSec + 600 });
    const tile = async () => ((await engines.h.t.get(`/api/v2/weather/watchers/${encodeURIComponent('{}')}`)).body as { entity_id: string; automatic_action_timer: number | null }[]).find((e) => e.entity_id === 'shop')!;
    expect((await tile()).automatic_action_timer).toBe(startSec + 600);

    engines.clock.advance(599_000);
    await beats();
    expect(steps(await disk(), 'ack')).toHaveLength(0);

    engines.clock.advance(1000);
    const alarms = await engines.h.eventually((found) => steps(byEntity(found, 'disk/host'), 'ack').length === 1 && steps(byEntity(found, 'disk/host'), 'stateinc').length === 2);
    const alarm = byEntity(alarms, 'disk/host')!;
    expect(alarm.v.ack).toMatchObject({ a: 'system', m: 'disk full (escalated)', initiator: 'system' });
    expect(alarm.v.state).toMatchObject({ _t: 'stateinc', val: 3, a: 'system', m: 'disk full (escalated)', initiator: 'system' });
    expect(alarm.v.alarmfilter).toEqual({ runs: { [id]: [startSec + 600] }, next_run: null });
    expect(byEntity(alarms, 'cpu/host')!.v.ack).toBeUndefined();
    expect((await dependency()).automatic_action_timer).toBeNull();
    expect((await tile()).automatic_action_timer).toBeNull();

    // repeat defaults to 1.
    engines.clock.advance(3600_000);
    await beats();
    expect(steps(await disk(), 'ack')).toHaveLength(1);
  });

  it('runs again every limit seconds up to repeat times, while the alarm meets the condition', async () => {
    await engines.start();
    // An empty entity_filter selects every alarm.
    const id = await filter({ entity_filter: '', tasks: ['alerts.useraction.comment'], output_format: 'reminder', limit: 60, repeat: 3, condition: { 'v.state.val': { $gte: 2 } } });
    await engines.h.send(check());
    engines.clock.advance(60_000);
    await engines.h.eventually((found) => steps(byEntity(found, 'disk/host'), 'comment').length === 1);
    engines.clock.advance(30_000);
    await beats();
    expect(steps(await disk(), 'comment')).toHaveLength(1);
    engines.clock.advance(30_000);
    let alarms = await engines.h.eventually((found) => steps(byEntity(found, 'disk/host'), 'comment').length === 2);
    expect(byEntity(alarms, 'disk/host')!.v.alarmfilter).toEqual({ runs: { [id]: [startSec + 60, startSec + 120] }, next_run: startSec + 180 });

    // Below the condition: no run, and no timer.
    await engines.h.send(check({ state: 1 }));
    engines.clock.advance(120_000);
    alarms = await engines.h.eventually((found) => byEntity(found, 'disk/host')?.v.alarmfilter?.next_run === null);
    expect(steps(byEntity(alarms, 'disk/host'), 'comment')).toHaveLength(2);

    await engines.h.send(check({ state: 3 }));
    alarms = await engines.h.eventually((found) => steps(byEntity(found, 'disk/host'), 'comment').length === 3);
    expect(steps(byEntity(alarms, 'disk/host'), 'comment')[2]).toMatchObject({ a: 'system', m: 'reminder' });
    engines.clock.advance(600_000);
    await beats();
    expect(steps(await disk(), 'comment')).toHaveLength(3);
    expect((await disk())!.v.alarmfilter.runs[id]).toHaveLength(3);
  });

  it('shows the earliest run planned by the filters, and none once they are deleted', async () => {
    await engines.start();
    const late = await filter({ tasks: ['alerts.useraction.ack'], limit: 900 });
    const early = await filter({ tasks: ['alerts.useraction.ack'], limit: 300 });
    await engines.h.send(check());
    await engines.h.eventually((found) => byEntity(found, 'disk/host')?.v.alarmfilter?.next_run === startSec + 300);
    expect((await engines.h.t.delete(`/api/v2/alerts/filters/${early}`)).status).toBe(200);
    await engines.h.eventually((found) => byEntity(found, 'disk/host')?.v.alarmfilter?.next_run === startSec + 900);
    expect((await engines.h.t.delete(`/api/v2/alerts/filters/${late}`)).status).toBe(200);
    await engines.h.eventually((found) => byEntity(found, 'disk/host')?.v.alarmfilter?.next_run === null);
  });

  it('runs every task type in order through the alarm change path, with the configured author', async () => {
    await engines.start({ 'alarm-filters': { author: 'robot' } });
    const tasks = ['ack', 'ackremove', 'comment', 'snooze', 'declareticket', 'done', 'keepstate', 'cancel', 'uncancel'].map((task) => `alerts.useraction.${task}`);
    await filter({ tasks, output_format: 'auto: {old}' });
    await filter({ entity_filter: { 'v.resource': 'cpu' }, tasks: ['alerts.systemaction.state_decrease', 'alerts.systemaction.status_increase', 'alerts.systemaction.status_decrease', 'alerts.systemaction.status_increase'] });
    await filter({ entity_filter: { 'v.resource': 'mem' }, tasks: ['alerts.useraction.changestate', 'alerts.systemaction.state_increase'] });
    await engines.h.send(check(), check({ resource: 'cpu', output: 'cpu hot' }), check({ resource: 'mem', state: 1 }));
    engines.clock.advance(600_000);
    const alarms = await engines.h.eventually((found) => steps(byEntity(found, 'disk/host'), 'uncancel').length === 1 && steps(byEntity(found, 'cpu/host'), 'statusinc').length === 3 && byEntity(found, 'mem/host')?.v.alarmfilter !== undefined);

    const diskAlarm = byEntity(alarms, 'disk/host')!;
    const taskSteps = steps(diskAlarm).slice(2);
    expect(taskSteps.map((s) => s._t)).toEqual(['ack', 'ackremove', 'comment', 'snooze', 'declareticket', 'done', 'changestate', 'cancel', 'statusinc', 'uncancel', 'statusdec']);
    for (const step of taskSteps) expect(step).toMatchObject({ a: 'robot', m: 'auto: disk full', initiator: 'system' });
    // keepstate keeps the current state; the default snooze lasts 300 s.
    expect(steps(diskAlarm, 'changestate')[0]!.val).toBe(2);
    expect(diskAlarm.v.snooze).toMatchObject({ val: startSec + 900 });
    expect(diskAlarm.v.status.val).toBe(1);

    const cpu = byEntity(alarms, 'cpu/host')!;
    expect(steps(cpu).slice(2).map((s) => [s._t, s.val])).toEqual([['statedec', 1], ['statusinc', 2], ['statusdec', 1], ['statusinc', 2]]);
    expect(cpu.v.output).toBe('cpu hot');

    // changestate locks the state: the state_increase check after it leaves it as it is.
    const mem = byEntity(alarms, 'mem/host')!;
    expect(mem.v.state).toMatchObject({ _t: 'changestate', val: 1 });
  });

  it('postpones the run until limit seconds after the entity’s pbehavior stopped, with postpone_if_active_pbehavior', async () => {
    await engines.start();
    await filter({ tasks: ['alerts.useraction.ack'], postpone_if_active_pbehavior: true });
    await filter({ entity_filter: { 'v.resource': 'cpu' }, tasks: ['alerts.useraction.ack'] });
    await engines.h.send(check(), check({ resource: 'cpu' }));
    for (const resource of ['disk', 'cpu']) {
      const res = await engines.h.t.post('/api/v2/pbehavior', { name: 'maintenance', author: 'ada', filter: { _id: `${resource}/host` }, tstart: startSec, tstop: startSec + 1800 });
      expect(res.status, res.text).toBe(200);
    }
    engines.clock.advance(900_000);
    // Without postponing, the pbehavior changes nothing.
    await engines.h.eventually((found) => steps(byEntity(found, 'cpu/host'), 'ack').length === 1);
    expect(steps(await disk(), 'ack')).toHaveLength(0);
    engines.clock.set(start + (1800 + 599) * 1000);
    await beats();
    expect(steps(await disk(), 'ack')).toHaveLength(0);
    engines.clock.set(start + (1800 + 600) * 1000);
    await engines.h.eventually((found) => steps(byEntity(found, 'disk/host'), 'ack').length === 1);
  });

  it('does nothing with a filter that cannot apply, and logs why', async () => {
    await engines.start();
    const never = await filter({ tasks: ['alerts.useraction.ack'], repeat: 0 });
    const noTicket = await filter({ entity_filter: { 'v.resource': 'cpu' }, tasks: ['alerts.useraction.assocticket', 'alerts.useraction.ackremove'] });
    await filter({ entity_filter: { 'v.resource': { $regex: '^nothing-matches$' } }, tasks: ['alerts.useraction.ack'] });
    await engines.h.send(check(), check({ resource: 'cpu' }));
    engines.clock.advance(600_000);
    expect(await engines.h.logged(never)).toContain('lets it run no time');
    const line = await engines.h.logged('alarm filter run changed nothing');
    expect(line).toContain(noTicket);
    expect(line).toContain('no ticket number');
    expect(line).toContain('the alarm is not acknowledged');
    const alarms = await engines.h.alarms();
    for (const alarm of alarms) expect(steps(alarm).map((s) => s._t)).toEqual(['stateinc', 'statusinc']);
    expect(byEntity(alarms, 'disk/host')!.v.alarmfilter).toBeUndefined();
  });
});
