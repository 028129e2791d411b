// The alarm operations of the alarm-filter and dynamic-infos engines: bookkeeping without steps, and the checks
// they make under the entity's lock.
import { describe, expect, it } from 'vitest';
import type { Alarm } from './alarm.js';
import { applyOperation, type AlarmOperation, type LifecycleEnvironment } from './lifecycle.js';

const settings = { baggotTimeSec: 60, cancelAutosolveDelaySec: 3600, doneAutosolveDelaySec: 900, flappingFreqLimit: 0, flappingIntervalSec: 0, stealthyIntervalSec: 0, enableLastEventDate: false };
const env = (nowSec: number): LifecycleEnvironment => ({ entityId: 'disk/host', nowSec, settings, newId: () => 'a1', displayName: () => 'AA-BB-CC' });

function open(): Alarm {
  const created = applyOperation(null, { type: 'check', state: 2, output: 'disk full', origin: { connector: 'c', connector_name: 'n', component: 'host', resource: 'disk' } }, env(1000));
  if (!created.changed) throw new Error(created.reason);
  return created.alarm;
}

/** The changed alarm (the change must have no trigger), or why nothing changed. */
function apply(alarm: Alarm, operation: AlarmOperation, nowSec: number): Alarm | string {
  const result = applyOperation(alarm, operation, env(nowSec));
  if (!result.changed) return result.reason;
  expect(result.triggers).toEqual([]);
  return result.alarm;
}

describe('alarmfilter', () => {
  const run = (nextRun: number | null): AlarmOperation => ({ type: 'alarmfilter', alarmFilter: { run: { filter: 'f1', repeat: 2, limitSec: 60 }, nextRun } });

  it('records a run only while it is due: fewer than repeat runs, the last one limit seconds ago', () => {
    let alarm = open();
    const first = apply(alarm, run(1160), 1100);
    if (typeof first === 'string') throw new Error(first);
    alarm = first;
    expect(alarm.v.alarmfilter).toEqual({ runs: { f1: [1100] }, next_run: 1160 });
    expect(alarm.v.steps).toHaveLength(2);
    expect(alarm.v.last_update_date).toBe(1000);
    expect(apply(alarm, run(null), 1159)).toBe('alarm filter f1 ran less than 60s ago');
    const second = apply(alarm, run(null), 1160);
    if (typeof second === 'string') throw new Error(second);
    expect(second.v.alarmfilter).toEqual({ runs: { f1: [1100, 1160] }, next_run: null });
    expect(apply(second, run(null), 5000)).toBe('alarm filter f1 already ran 2 time(s)');
  });

  it('sets the next run alone, and changes nothing when it is the same', () => {
    const alarm = apply(open(), { type: 'alarmfilter', alarmFilter: { nextRun: 1600 } }, 1100) as Alarm;
    expect(alarm.v.alarmfilter).toEqual({ runs: {}, next_run: 1600 });
    expect(apply(alarm, { type: 'alarmfilter', alarmFilter: { nextRun: 1600 } }, 1200)).toBe('the alarm filter runs are unchanged');
  });
});

describe('alarmfilterstatus', () => {
  it('moves the status one value with a step and its trigger, within 0–4', () => {
    const result = applyOperation(open(), { type: 'alarmfilterstatus', statusShift: 1, author: 'system', output: 'o', initiator: 'system' }, env(1100));
    if (!result.changed) throw new Error(result.reason);
    expect(result.alarm.v.status).toMatchObject({ _t: 'statusinc', val: 2, a: 'system', initiator: 'system' });
    expect(result.triggers).toEqual(['statusinc']);
    const off = { ...result.alarm, v: { ...result.alarm.v, status: { ...result.alarm.v.status, val: 0 } } };
    expect(applyOperation(off, { type: 'alarmfilterstatus', statusShift: -1 }, env(1100))).toEqual({ changed: false, reason: 'the status cannot go below 0' });
  });
});

describe('dynamicinfos', () => {
  it('replaces v.infos without a step or a trigger, and changes nothing when they are equal', () => {
    const result = applyOperation(open(), { type: 'dynamicinfos', infos: { r1: { url: 'x' } } }, env(1100));
    if (!result.changed) throw new Error(result.reason);
    expect(result.alarm.v.infos).toEqual({ r1: { url: 'x' } });
    expect(result.triggers).toEqual([]);
    expect(result.alarm.v.steps).toHaveLength(2);
    expect(result.alarm.v.last_update_date).toBe(1000);
    expect(applyOperation(result.alarm, { type: 'dynamicinfos', infos: { r1: { url: 'x' } } }, env(1200))).toEqual({ changed: false, reason: 'the dynamic infos are unchanged' });
  });
});
