import { describe, expect, it } from 'vitest';
import { recurrenceRule, parseRecurrence } from './recurrence.js';
import { Schedule, type ScheduleSpec } from './schedule.js';
import { TimeZone } from './time-zone.js';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s) / 1000;
const week = 7 * 86400;

describe('the reference test vector (REFERENCE §5.9)', () => {
  const spec: ScheduleSpec = { rrule: 'FREQ=WEEKLY;BYDAY=FR', tstart: 1529085600, tstop: 1529294400, timezone: 'UTC', exdate: [] };
  const vector: [number, boolean][] = [
    [1529086401, true],
    [1529154801, true],
    [1529290800, true],
    [1529740800, true],
    [1529068401, false],
    [1529308800, false],
  ];

  it.each(vector)('at %i active is %s', (t, active) => {
    expect(new Schedule(spec).isActiveAt(t)).toBe(active);
  });

  it.each(vector)('a week after %i active is still %s', (t, active) => {
    expect(new Schedule(spec).isActiveAt(t + week)).toBe(active);
  });

  it('gives the same answers when one schedule is asked in any order (remembered windows)', () => {
    const schedule = new Schedule(spec);
    const times = vector.flatMap(([t, active]) => [0, 1, 5, 52].map((weeks) => [t + weeks * week, active] as const));
    for (const [t, active] of [...times].reverse()) expect(schedule.isActiveAt(t)).toBe(active);
    for (const [t, active] of times) expect(schedule.isActiveAt(t)).toBe(active);
  });
});

describe('without a recurrence', () => {
  const schedule = new Schedule({ rrule: null, tstart: 1000, tstop: 2000, timezone: 'Europe/Paris', exdate: [] });

  it('is active on [tstart, tstop], both ends included', () => {
    expect([999, 1000, 1500, 2000, 2001].map((t) => schedule.isActiveAt(t))).toEqual([false, true, true, true, false]);
  });

  it('treats an empty rrule as none', () => {
    expect(new Schedule({ rrule: '', tstart: 1000, tstop: 2000, timezone: 'UTC', exdate: [] }).isActiveAt(1500)).toBe(true);
  });

  it('is expired from tstop on', () => {
    expect(schedule.isExpiredAt(1999)).toBe(false);
    expect(schedule.isExpiredAt(2000)).toBe(true);
  });
});

describe('with a recurrence', () => {
  it('counts from the last occurrence starting strictly before t: an occurrence start itself belongs to the previous one', () => {
    // Daily, one hour long, from 2024-01-01 08:00 UTC.
    const schedule = new Schedule({ rrule: 'FREQ=DAILY', tstart: utc(2024, 1, 1, 8), tstop: utc(2024, 1, 1, 9), timezone: 'UTC', exdate: [] });
    expect(schedule.isActiveAt(utc(2024, 1, 5, 8))).toBe(false);
    expect(schedule.isActiveAt(utc(2024, 1, 5, 8, 0, 1))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 1, 5, 9))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 1, 5, 9, 0, 1))).toBe(false);
    expect(schedule.isActiveAt(utc(2024, 1, 1, 7))).toBe(false);
  });

  it('keeps the local time of occurrences across the change to summer time (Europe/Paris, last Sunday of March)', () => {
    // Saturdays 22:00 to Sunday 02:00, Paris time; first on 2024-03-23 (CET, UTC+1).
    const tstart = utc(2024, 3, 23, 21);
    const schedule = new Schedule({ rrule: 'FREQ=WEEKLY;BYDAY=SA', tstart, tstop: tstart + 4 * 3600, timezone: 'Europe/Paris', exdate: [] });
    // 2024-03-30 22:00 CET = 21:00 UTC; it lasts 4 real hours although the night loses one.
    expect(schedule.isActiveAt(utc(2024, 3, 30, 20, 59))).toBe(false);
    expect(schedule.isActiveAt(utc(2024, 3, 30, 21, 30))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 3, 31, 1))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 3, 31, 1, 0, 1))).toBe(false);
    // 2024-04-06 22:00 CEST = 20:00 UTC, one hour earlier in UTC than a week earlier.
    expect(schedule.isActiveAt(utc(2024, 4, 6, 19, 59))).toBe(false);
    expect(schedule.isActiveAt(utc(2024, 4, 6, 20, 30))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 4, 7, 0, 0))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 4, 7, 0, 0, 1))).toBe(false);
  });

  it('keeps the local time of occurrences across the change to winter time (Europe/Paris, last Sunday of October)', () => {
    // Mondays 09:00 to 10:00, Paris time; first on 2024-10-21 (CEST, UTC+2).
    const tstart = utc(2024, 10, 21, 7);
    const schedule = new Schedule({ rrule: 'FREQ=WEEKLY;BYDAY=MO', tstart, tstop: tstart + 3600, timezone: 'Europe/Paris', exdate: [] });
    expect(schedule.isActiveAt(utc(2024, 10, 21, 7, 30))).toBe(true);
    // 2024-10-28 09:00 CET = 08:00 UTC.
    expect(schedule.isActiveAt(utc(2024, 10, 28, 7, 30))).toBe(false);
    expect(schedule.isActiveAt(utc(2024, 10, 28, 8, 30))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 10, 28, 9, 0, 1))).toBe(false);
  });

  it('moves an occurrence that falls in the skipped hour forward, and takes the first of a repeated hour', () => {
    // Daily 02:30 to 03:00 Paris time.
    const tstart = utc(2024, 3, 28, 1, 30);
    const schedule = new Schedule({ rrule: 'FREQ=DAILY', tstart, tstop: tstart + 1800, timezone: 'Europe/Paris', exdate: [] });
    // 2024-03-31 02:30 does not exist: the occurrence starts at 03:30 CEST = 01:30 UTC.
    expect(schedule.isActiveAt(utc(2024, 3, 31, 1, 45))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 3, 31, 0, 45))).toBe(false);
    // 2024-10-27 02:30 happens twice: the first time, 02:30 CEST = 00:30 UTC.
    expect(schedule.isActiveAt(utc(2024, 10, 27, 0, 45))).toBe(true);
    expect(schedule.isActiveAt(utc(2024, 10, 27, 1, 45))).toBe(false);
  });

  it('skips the occurrences whose start is an exdate, and only those', () => {
    const tstart = utc(2024, 10, 21, 7);
    const skipped = utc(2024, 10, 28, 8);
    const schedule = new Schedule({ rrule: 'FREQ=WEEKLY;BYDAY=MO', tstart, tstop: tstart + 3600, timezone: 'Europe/Paris', exdate: [skipped] });
    expect(schedule.isActiveAt(utc(2024, 10, 21, 7, 30))).toBe(true);
    expect(schedule.isActiveAt(skipped + 1800)).toBe(false);
    expect(schedule.isActiveAt(utc(2024, 11, 4, 8, 30))).toBe(true);
  });

  it('ignores an exdate that is not an occurrence start', () => {
    const tstart = utc(2024, 1, 1, 8);
    const schedule = new Schedule({ rrule: 'FREQ=DAILY', tstart, tstop: tstart + 3600, timezone: 'UTC', exdate: [utc(2024, 1, 2, 8, 30)] });
    expect(schedule.isActiveAt(utc(2024, 1, 2, 8, 30))).toBe(true);
  });

  it('ends with COUNT and UNTIL', () => {
    const tstart = utc(2024, 1, 1, 8);
    const counted = new Schedule({ rrule: 'FREQ=DAILY;COUNT=3', tstart, tstop: tstart + 3600, timezone: 'UTC', exdate: [] });
    expect(counted.isActiveAt(utc(2024, 1, 3, 8, 30))).toBe(true);
    expect(counted.isActiveAt(utc(2024, 1, 4, 8, 30))).toBe(false);
    const until = new Schedule({ rrule: 'FREQ=DAILY;UNTIL=20240102T235959Z', tstart, tstop: tstart + 3600, timezone: 'UTC', exdate: [] });
    expect(until.isActiveAt(utc(2024, 1, 2, 8, 30))).toBe(true);
    expect(until.isActiveAt(utc(2024, 1, 3, 8, 30))).toBe(false);
  });

  it('finds the last occurrence of a weekly BYSETPOS rule across excluded weeks', () => {
    // From Wednesday 2024-01-03: the first of each week's Monday and Friday (so Mondays, after the first week).
    const tstart = utc(2024, 1, 3, 8);
    const exdate = [utc(2024, 2, 26, 8), utc(2024, 3, 4, 8)];
    const schedule = new Schedule({ rrule: 'FREQ=WEEKLY;BYDAY=MO,FR;BYSETPOS=1', tstart, tstop: tstart + 3600, timezone: 'UTC', exdate });
    expect(schedule.windowAt(utc(2024, 3, 6, 8))).toEqual({ start: utc(2024, 2, 19, 8), end: utc(2024, 2, 19, 9) });
  });

  it('is expired once no occurrence ends after t; an endless one never is', () => {
    const tstart = utc(2024, 1, 1, 8);
    const counted = new Schedule({ rrule: 'FREQ=DAILY;COUNT=3', tstart, tstop: tstart + 3600, timezone: 'UTC', exdate: [] });
    expect(counted.isExpiredAt(utc(2024, 1, 3, 8, 30))).toBe(false);
    expect(counted.isExpiredAt(utc(2024, 1, 3, 8, 59, 59))).toBe(false);
    expect(counted.isExpiredAt(utc(2024, 1, 3, 9))).toBe(true);
    const excludedLast = new Schedule({ rrule: 'FREQ=DAILY;COUNT=3', tstart, tstop: tstart + 3600, timezone: 'UTC', exdate: [utc(2024, 1, 3, 8)] });
    expect(excludedLast.isExpiredAt(utc(2024, 1, 2, 12))).toBe(true);
    const endless = new Schedule({ rrule: 'FREQ=YEARLY', tstart, tstop: tstart + 3600, timezone: 'UTC', exdate: [] });
    expect(endless.isExpiredAt(utc(2999, 1, 1))).toBe(false);
  });
});

describe('starting iteration near t gives the answers of iterating from tstart', () => {
  /** The definition, evaluated the slow way: every occurrence from tstart on. */
  function bruteForce(spec: ScheduleSpec, t: number): boolean {
    const zone = TimeZone.named(spec.timezone);
    const recurrence = parseRecurrence(spec.rrule as string);
    const excluded = new Set(spec.exdate);
    let last: number | null = null;
    const until = recurrence.until === null ? null : recurrence.until.kind === 'instant' ? zone.toWallClock(recurrence.until.epochSec) : recurrence.until.wallSec;
    recurrenceRule(recurrence, zone.toWallClock(spec.tstart), until).all((date) => {
      const start = zone.toInstant(date.getTime() / 1000);
      if (start >= t) return false;
      if (!excluded.has(start)) last = start;
      return true;
    });
    return last !== null && t <= (last as number) + (spec.tstop - spec.tstart);
  }

  const tstart = utc(2023, 2, 27, 6, 15);
  const rules = [
    'FREQ=DAILY;INTERVAL=3',
    'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
    'FREQ=HOURLY;INTERVAL=5;BYHOUR=1,2,3,4,5,6,7,8,9,10,11,12',
    'FREQ=DAILY;BYMONTH=1,7',
    'FREQ=MINUTELY;INTERVAL=1441;UNTIL=20240110T000000',
    'FREQ=MONTHLY;BYDAY=-1SU',
    'FREQ=WEEKLY;BYDAY=SA,SU;WKST=SU',
  ];

  it.each(rules)('%s', (rrule) => {
    const spec: ScheduleSpec = { rrule, tstart, tstop: tstart + 5400, timezone: 'Europe/Paris', exdate: [utc(2024, 3, 4, 5, 15)] };
    const schedule = new Schedule(spec);
    // A pseudo-random but fixed walk over 2023–2025, DST changes included.
    let t = tstart - 3600;
    let seed = 7;
    for (let i = 0; i < 80; i++) {
      seed = (seed * 48271) % 2147483647;
      t += seed % (9 * 86400);
      expect({ t, active: schedule.isActiveAt(t) }).toEqual({ t, active: bruteForce(spec, t) });
    }
  });
});

describe('windows', () => {
  it('gives the single window from tstart on, null before', () => {
    const schedule = new Schedule({ rrule: null, tstart: 1000, tstop: 2000, timezone: 'UTC', exdate: [] });
    expect(schedule.windowAt(999)).toBeNull();
    expect(schedule.windowAt(1000)).toEqual({ start: 1000, end: 2000 });
    expect(schedule.windowAt(5000)).toEqual({ start: 1000, end: 2000 });
  });

  it('gives the occurrence that started strictly before t, skipping exdates', () => {
    const tstart = utc(2024, 1, 1, 8);
    const hour = 3600;
    const schedule = new Schedule({ rrule: 'FREQ=DAILY', tstart, tstop: tstart + hour, timezone: 'UTC', exdate: [utc(2024, 1, 4, 8)] });
    expect(schedule.windowAt(tstart)).toBeNull();
    expect(schedule.windowAt(utc(2024, 1, 3, 8, 30))).toEqual({ start: utc(2024, 1, 3, 8), end: utc(2024, 1, 3, 9) });
    // At an occurrence start, the previous occurrence is the last one; the excluded day keeps the day before.
    expect(schedule.windowAt(utc(2024, 1, 3, 8))).toEqual({ start: utc(2024, 1, 2, 8), end: utc(2024, 1, 2, 9) });
    expect(schedule.windowAt(utc(2024, 1, 4, 12))).toEqual({ start: utc(2024, 1, 3, 8), end: utc(2024, 1, 3, 9) });
  });
});

describe('random schedules give the answers of the plain rrule scan from tstart', () => {
  /** The definition, with every occurrence from tstart on out of rrule: the last start strictly before t, or null. */
  function referenceLastStart(spec: ScheduleSpec, t: number): number | null {
    const zone = TimeZone.named(spec.timezone);
    const recurrence = parseRecurrence(spec.rrule as string);
    const excluded = new Set(spec.exdate.map((start) => zone.toWallClock(start)));
    const until = recurrence.until === null ? null : recurrence.until.kind === 'instant' ? zone.toWallClock(recurrence.until.epochSec) : recurrence.until.wallSec;
    let last: number | null = null;
    recurrenceRule(recurrence, zone.toWallClock(spec.tstart), until).all((date) => {
      const wall = date.getTime() / 1000;
      if (excluded.has(wall)) return true;
      const start = zone.toInstant(wall);
      if (start >= t) return false;
      last = start;
      return true;
    });
    return last;
  }

  let seed = 99;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const zones = ['Europe/Paris', 'America/New_York', 'UTC', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'Asia/Kolkata', 'Pacific/Chatham'];
  const rules = [
    'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
    'FREQ=DAILY',
    'FREQ=WEEKLY;BYDAY=SA,SU',
    'FREQ=MONTHLY;BYMONTHDAY=1,15',
    'FREQ=DAILY;INTERVAL=2;BYHOUR=2,14',
    'FREQ=MONTHLY',
    'FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-1,30',
    'FREQ=YEARLY;BYMONTH=3,10;BYDAY=SU',
    'FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,SU;WKST=SU;BYHOUR=1,2,3',
    'FREQ=DAILY;BYHOUR=0,2,3;BYMINUTE=0,30;UNTIL=20250601T000000',
    'FREQ=DAILY;COUNT=30',
    'FREQ=MONTHLY;BYDAY=-1SU;BYHOUR=2',
    'FREQ=WEEKLY;BYDAY=MO,FR,SA;BYSETPOS=1,-1;BYHOUR=2,23',
    'FREQ=YEARLY;BYWEEKNO=13,44;BYDAY=SU;BYHOUR=1,2,3',
    'FREQ=HOURLY;INTERVAL=7',
  ];

  it.each(zones)('in %s, DST changes included', (timezone) => {
    for (const rrule of rules) {
      // Starting in 2022–2024 at any second; a third of them at 02:xx local time, the hour DST changes skip or repeat.
      const zone = TimeZone.named(timezone);
      const day = utc(2022, 1, 1) + int(0, 3 * 365) * 86400;
      const tstart = zone.toInstant(day + (random() < 0.3 ? int(2 * 3600, 3 * 3600 - 1) : int(0, 86399)));
      const spec: ScheduleSpec = { rrule, tstart, tstop: tstart + int(60, 30 * 3600), timezone, exdate: random() < 0.5 ? [tstart + int(1, 20) * 86400] : [] };
      const schedule = new Schedule(spec);
      // Instants around the start, within two years, and around the DST changes (found hour by hour).
      const changes: number[] = [];
      for (let hour = tstart - 86400 * 10; hour < tstart + 2 * 365 * 86400 && changes.length < 6; hour += 3600) {
        if (zone.offsetAt(hour) !== zone.offsetAt(hour + 3600)) changes.push(hour + 3600);
      }
      const instants = [tstart - 1, tstart, tstart + 1, tstart + int(0, 2 * 365 * 86400), ...changes.flatMap((change) => [change - int(0, 7200), change + int(0, 7200), change + int(0, 30 * 86400)])];
      for (const t of instants) {
        const last = referenceLastStart(spec, t);
        const window = last === null ? null : { start: last, end: last + spec.tstop - spec.tstart };
        expect({ rrule, tstart, t, window: schedule.windowAt(t) }).toEqual({ rrule, tstart, t, window });
        expect(new Schedule(spec).isActiveAt(t)).toBe(window !== null && t <= window.end);
      }
    }
  });
});
