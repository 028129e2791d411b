// rrule's named exports fail under plain Node (its ESM build is not marked as ESM): use the default import.
import rrulePackage, { type Options as RRuleOptions } from 'rrule';

const { RRule } = rrulePackage;

/** The recurrence frequencies of RFC 5545, with the `rrule` value of each. */
const frequencies = {
  YEARLY: RRule.YEARLY,
  MONTHLY: RRule.MONTHLY,
  WEEKLY: RRule.WEEKLY,
  DAILY: RRule.DAILY,
  HOURLY: RRule.HOURLY,
  MINUTELY: RRule.MINUTELY,
  SECONDLY: RRule.SECONDLY,
} as const;

export type FrequencyName = keyof typeof frequencies;

const weekdays = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

/** Recurrences iterate from `tstart`; a huge COUNT would make every activeness check iterate as long. */
export const maxRecurrenceCount = 10_000;

/** A rule's end given by UNTIL: a real instant (`…Z`) or a wall-clock time of the pbehavior's zone. */
export type RecurrenceEnd = { kind: 'instant'; epochSec: number } | { kind: 'wall-clock'; wallSec: number };

/** A validated RRULE, ready to iterate from any start (DTSTART comes from the pbehavior's `tstart`). */
export interface Recurrence {
  frequency: FrequencyName;
  interval: number;
  count: number | null;
  until: RecurrenceEnd | null;
  /** The BY* parts and WKST, as `rrule` options. */
  parts: Partial<RRuleOptions>;
}

/** An RRULE that cannot be used; the message is shown after `Invalid RRULE: `. */
export class RecurrenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecurrenceError';
  }
}

interface NumberListPart {
  option: 'bymonth' | 'bymonthday' | 'byyearday' | 'byweekno' | 'byhour' | 'byminute' | 'bysecond' | 'bysetpos';
  min: number;
  max: number;
  /** Negative values count from the end (e.g. BYMONTHDAY=-1, the last day). */
  signed: boolean;
}

const numberListParts: Record<string, NumberListPart> = {
  BYMONTH: { option: 'bymonth', min: 1, max: 12, signed: false },
  BYMONTHDAY: { option: 'bymonthday', min: 1, max: 31, signed: true },
  BYYEARDAY: { option: 'byyearday', min: 1, max: 366, signed: true },
  BYWEEKNO: { option: 'byweekno', min: 1, max: 53, signed: true },
  BYHOUR: { option: 'byhour', min: 0, max: 23, signed: false },
  BYMINUTE: { option: 'byminute', min: 0, max: 59, signed: false },
  BYSECOND: { option: 'bysecond', min: 0, max: 59, signed: false },
  BYSETPOS: { option: 'bysetpos', min: 1, max: 366, signed: true },
};

const knownParts = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'WKST', 'BYDAY', ...Object.keys(numberListParts)]);

function positiveInteger(name: string, value: string, max: number): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new RecurrenceError(`${name} must be an integer between 1 and ${max}, not "${value}"`);
  }
  return Number(value);
}

function numberList(name: string, value: string, spec: NumberListPart): number[] {
  return value.split(',').map((item) => {
    const match = /^([+-]?)([0-9]{1,3})$/.exec(item);
    const magnitude = Number(match?.[2]);
    if (!match || (match[1] !== '' && !spec.signed) || magnitude < spec.min || magnitude > spec.max) {
      const range = spec.signed ? `${spec.min} to ${spec.max} or -${spec.max} to -${spec.min}` : `${spec.min} to ${spec.max}`;
      throw new RecurrenceError(`${name} values must be integers from ${range}, not "${item}"`);
    }
    return match[1] === '-' ? -magnitude : magnitude;
  });
}

function weekdayIndex(name: string, value: string): number {
  const index = (weekdays as readonly string[]).indexOf(value);
  if (index < 0) throw new RecurrenceError(`${name} must be one of ${weekdays.join(', ')}, not "${value}"`);
  return index;
}

function byDay(value: string): NonNullable<RRuleOptions['byweekday']> {
  return value.split(',').map((item) => {
    const match = /^([+-]?[0-9]{1,2})?([A-Z]{2})$/.exec(item);
    if (!match) throw new RecurrenceError(`BYDAY values look like MO or 1MO or -1FR, not "${item}"`);
    const day = weekdayIndex('BYDAY weekdays', match[2] as string);
    if (match[1] === undefined) return day;
    const nth = Number(match[1]);
    if (nth === 0 || Math.abs(nth) > 53) throw new RecurrenceError(`BYDAY positions must be 1 to 53 or -53 to -1, not "${item}"`);
    return new rrulePackage.Weekday(day, nth);
  });
}

function untilValue(value: string): RecurrenceEnd {
  const match = /^([0-9]{4})([0-9]{2})([0-9]{2})(?:T([0-9]{2})([0-9]{2})([0-9]{2})(Z?))?$/.exec(value);
  if (!match) throw new RecurrenceError(`UNTIL must be a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, Z for UTC), not "${value}"`);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new RecurrenceError(`UNTIL is not a valid date: "${value}"`);
  }
  return match[7] === 'Z' ? { kind: 'instant', epochSec: ms / 1000 } : { kind: 'wall-clock', wallSec: ms / 1000 };
}

/**
 * Validates an RRULE value (RFC 5545 `RECUR`, optionally prefixed with `RRULE:`), e.g. `FREQ=WEEKLY;BYDAY=MO,FR`.
 * DTSTART is not accepted inside the rule: it is the pbehavior's `tstart`. Throws a RecurrenceError naming the fault.
 */
export function parseRecurrence(text: string): Recurrence {
  const value = text.trim().replace(/^RRULE:/i, '');
  if (/[\r\n:]/.test(value)) {
    throw new RecurrenceError('only one RRULE value is accepted (DTSTART comes from tstart, exceptions from exdate)');
  }
  const seen = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).toUpperCase();
    if (eq < 0 || eq === part.length - 1) throw new RecurrenceError(`"${part}" is not a NAME=VALUE part`);
    if (!knownParts.has(name)) throw new RecurrenceError(`unknown part "${name}"`);
    if (seen.has(name)) throw new RecurrenceError(`${name} is given twice`);
    seen.set(name, part.slice(eq + 1).toUpperCase());
  }
  const freq = seen.get('FREQ');
  if (freq === undefined) throw new RecurrenceError('FREQ is required');
  if (!(freq in frequencies)) throw new RecurrenceError(`FREQ must be one of ${Object.keys(frequencies).join(', ')}, not "${freq}"`);
  if (seen.has('COUNT') && seen.has('UNTIL')) throw new RecurrenceError('COUNT and UNTIL cannot both be given');

  const parts: Partial<RRuleOptions> = {};
  for (const [name, raw] of seen) {
    const list = numberListParts[name];
    if (list) parts[list.option] = numberList(name, raw, list);
    else if (name === 'BYDAY') parts.byweekday = byDay(raw);
    else if (name === 'WKST') parts.wkst = weekdayIndex('WKST', raw);
  }
  const interval = seen.has('INTERVAL') ? positiveInteger('INTERVAL', seen.get('INTERVAL') as string, 10_000) : 1;
  const count = seen.has('COUNT') ? positiveInteger('COUNT', seen.get('COUNT') as string, maxRecurrenceCount) : null;
  const until = seen.has('UNTIL') ? untilValue(seen.get('UNTIL') as string) : null;
  return { frequency: freq as FrequencyName, interval, count, until, parts };
}

/** Builds the `rrule` iterator of a recurrence starting at a wall-clock time, ending at a wall-clock UNTIL if any. */
export function recurrenceRule(recurrence: Recurrence, startWallSec: number, untilWallSec: number | null): InstanceType<typeof RRule> {
  return new RRule(
    {
      ...recurrence.parts,
      freq: frequencies[recurrence.frequency],
      interval: recurrence.interval,
      count: recurrence.count,
      until: untilWallSec === null ? null : new Date(untilWallSec * 1000),
      dtstart: new Date(startWallSec * 1000),
    },
    true,
  );
}

const daySec = 86400;
/** `rrule` iterates no further than this year. */
const lastYear = 9999;

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1–12). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719468;
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : 30 + ((month + (month >> 3)) & 1);
}

/** Weekday of a day number, 0 = Monday as in `rrule`. */
const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

const ascending = (values: readonly number[]): boolean => values.every((value, i) => i === 0 || (values[i - 1] as number) < value);

/** Start-independent parts of a rule that `directOccurrences` can expand; see there. */
interface DirectShape {
  frequency: 'YEARLY' | 'MONTHLY' | 'WEEKLY' | 'DAILY';
  byMonth: readonly number[] | null;
  byWeekday: readonly number[] | null;
  byMonthDay: readonly number[] | null;
  byHour: readonly number[] | null;
  byMinute: readonly number[] | null;
  bySecond: readonly number[] | null;
}

const directShapes = new WeakMap<Recurrence, DirectShape | null>();

function directShape(recurrence: Recurrence): DirectShape | null {
  let shape = directShapes.get(recurrence);
  if (shape === undefined) {
    shape = computeDirectShape(recurrence);
    directShapes.set(recurrence, shape);
  }
  return shape;
}

function computeDirectShape({ frequency, parts }: Recurrence): DirectShape | null {
  if (frequency !== 'YEARLY' && frequency !== 'MONTHLY' && frequency !== 'WEEKLY' && frequency !== 'DAILY') return null;
  if (parts.bysetpos || parts.byweekno || parts.byyearday) return null;
  const weekdays = parts.byweekday as (number | { weekday: number })[] | undefined;
  // A numbered weekday (1MO, -1FR) of a month or year is not a plain day filter; in a week or a day, its number is ignored.
  if ((frequency === 'YEARLY' || frequency === 'MONTHLY') && weekdays?.some((day) => typeof day !== 'number')) return null;
  const times = [parts.byhour, parts.byminute, parts.bysecond] as (number[] | undefined)[];
  // `rrule` emits the times of a day in the order of these lists: only sorted ones give ascending occurrences.
  if (times.some((list) => list !== undefined && !ascending(list))) return null;
  const list = (value: unknown): readonly number[] | null => (value === undefined ? null : (value as number[]));
  return {
    frequency,
    byMonth: list(parts.bymonth),
    byWeekday: weekdays === undefined ? null : weekdays.map((day) => (typeof day === 'number' ? day : day.weekday)),
    byMonthDay: list(parts.bymonthday),
    byHour: list(parts.byhour),
    byMinute: list(parts.byminute),
    bySecond: list(parts.bysecond),
  };
}

/** Visits occurrence starts (wall-clock seconds) at or after `fromWallSec` in ascending order while `visit` returns true. */
export type OccurrenceWalk = (fromWallSec: number, visit: (wallSec: number) => boolean) => void;

/**
 * The occurrences of the common rules computed with calendar arithmetic, as `rrule` would give them, without its
 * per-call option parsing and year tables: DAILY, WEEKLY, MONTHLY and YEARLY rules whose days are the days of each
 * period kept by BYMONTH, BYDAY (plain weekdays), BYMONTHDAY, at the times of BYHOUR × BYMINUTE × BYSECOND. Other
 * rules (BYSETPOS, BYWEEKNO, BYYEARDAY, numbered weekdays, unsorted time lists, sub-second starts) give null: use
 * `recurrenceRule`. `span` bounds the wall-clock length of one period; with COUNT, walks must start at the start.
 */
export function directOccurrences(recurrence: Recurrence, startWallSec: number, untilWallSec: number | null): { walk: OccurrenceWalk; span: number } | null {
  const shape = directShape(recurrence);
  if (shape === null || !Number.isInteger(startWallSec)) return null;
  const { frequency } = shape;
  const { interval } = recurrence;
  const startDay = Math.floor(startWallSec / daySec);
  const startTime = startWallSec - startDay * daySec;
  const start = new Date(startDay * daySec * 1000);
  const startYear = start.getUTCFullYear();
  const startMonth = start.getUTCMonth() + 1;
  // The defaults `rrule` takes from DTSTART when no BY* part names the days, and for the time of day.
  let { byMonth, byWeekday, byMonthDay } = shape;
  if (byWeekday === null && byMonthDay === null) {
    if (frequency === 'YEARLY') byMonth ??= [startMonth];
    if (frequency === 'YEARLY' || frequency === 'MONTHLY') byMonthDay = [start.getUTCDate()];
    if (frequency === 'WEEKLY') byWeekday = [weekdayOf(startDay)];
  }
  const times: number[] = [];
  for (const hour of shape.byHour ?? [Math.floor(startTime / 3600)]) {
    for (const minute of shape.byMinute ?? [Math.floor(startTime / 60) % 60]) {
      for (const second of shape.bySecond ?? [startTime % 60]) times.push(hour * 3600 + minute * 60 + second);
    }
  }
  const monthSet = byMonth === null ? null : new Set(byMonth);
  const weekdaySet = byWeekday === null ? null : new Set(byWeekday);
  const monthDaySet = byMonthDay === null ? null : new Set(byMonthDay);
  const wkst = (recurrence.parts.wkst as number | undefined) ?? 0;
  const startWeek = startDay - ((weekdayOf(startDay) - wkst + 7) % 7);
  const periodDays = { DAILY: 1, WEEKLY: 7, MONTHLY: 31, YEARLY: 366 }[frequency];

  const walk: OccurrenceWalk = (fromWallSec, visit) => {
    const from = Math.max(fromWallSec, startWallSec);
    let remaining = recurrence.count ?? Infinity;
    /** Visits the occurrences of one day; false once the walk is over. */
    const emitDay = (day: number, year: number, month: number, monthDay: number, monthLength: number): boolean => {
      if (year > lastYear) return false;
      if (monthSet !== null && !monthSet.has(month)) return true;
      if (weekdaySet !== null && !weekdaySet.has(weekdayOf(day))) return true;
      if (monthDaySet !== null && !monthDaySet.has(monthDay) && !monthDaySet.has(monthDay - monthLength - 1)) return true;
      for (const time of times) {
        const wall = day * daySec + time;
        if (wall < from) continue;
        if (untilWallSec !== null && wall > untilWallSec) return false;
        if (!visit(wall) || --remaining === 0) return false;
      }
      return true;
    };
    const emitDays = (first: number, count: number): boolean => {
      for (let day = first; day < first + count; day++) {
        const date = new Date(day * daySec * 1000);
        const year = date.getUTCFullYear();
        const month = date.getUTCMonth() + 1;
        if (!emitDay(day, year, month, date.getUTCDate(), daysInMonth(year, month))) return false;
      }
      return true;
    };
    const fromDay = Math.floor(from / daySec);
    if (frequency === 'DAILY') {
      for (let day = startDay + Math.ceil((fromDay - startDay) / interval) * interval; ; day += interval) {
        if (!emitDays(day, 1)) return;
      }
    }
    if (frequency === 'WEEKLY') {
      const fromWeek = fromDay - ((weekdayOf(fromDay) - wkst + 7) % 7);
      for (let week = startWeek + Math.ceil((fromWeek - startWeek) / (7 * interval)) * 7 * interval; ; week += 7 * interval) {
        if (!emitDays(week, 7)) return;
      }
    }
    const fromDate = new Date(fromDay * daySec * 1000);
    if (frequency === 'MONTHLY') {
      const startIndex = startYear * 12 + startMonth - 1;
      const fromIndex = fromDate.getUTCFullYear() * 12 + fromDate.getUTCMonth();
      for (let index = startIndex + Math.ceil((fromIndex - startIndex) / interval) * interval; ; index += interval) {
        const year = Math.floor(index / 12);
        const month = index - year * 12 + 1;
        if (year > lastYear) return;
        if (monthSet !== null && !monthSet.has(month)) continue;
        const first = daysFromCivil(year, month, 1);
        const length = daysInMonth(year, month);
        for (let monthDay = 1; monthDay <= length; monthDay++) {
          if (!emitDay(first + monthDay - 1, year, month, monthDay, length)) return;
        }
      }
    }
    for (let year = startYear + Math.ceil((fromDate.getUTCFullYear() - startYear) / interval) * interval; year <= lastYear; year += interval) {
      for (let month = 1; month <= 12; month++) {
        if (monthSet !== null && !monthSet.has(month)) continue;
        const first = daysFromCivil(year, month, 1);
        const length = daysInMonth(year, month);
        for (let monthDay = 1; monthDay <= length; monthDay++) {
          if (!emitDay(first + monthDay - 1, year, month, monthDay, length)) return;
        }
      }
    }
  };
  return { walk, span: periodDays * interval * daySec };
}
