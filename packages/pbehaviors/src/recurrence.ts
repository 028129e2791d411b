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

/**
 * Builds the `rrule` iterator of a recurrence starting at a wall-clock time, ending at a wall-clock UNTIL if any;
 * `pinned` replaces some of the rule's parts.
 */
export function recurrenceRule(recurrence: Recurrence, startWallSec: number, untilWallSec: number | null, pinned: Partial<RRuleOptions> = {}): InstanceType<typeof RRule> {
  return new RRule(
    {
      ...recurrence.parts,
      ...pinned,
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
/** The last day number the calendar arithmetic covers (31 December 9999). */
const lastDay = daysFromCivil(lastYear, 12, 31);

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1–12). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719468;
}

/** The date of a day number (days since 1970-01-01), packed as year × 512 + month (1–12) × 32 + day of month. */
function civilFromDays(days: number): number {
  const shifted = days + 719468;
  const era = Math.floor(shifted / 146097);
  const dayOfEra = shifted - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return year * 512 + month * 32 + dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : 30 + ((month + (month >> 3)) & 1);
}

/** Weekday of a day number, 0 = Monday as in `rrule`. */
const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

const ascending = (values: readonly number[]): boolean => values.every((value, i) => i === 0 || (values[i - 1] as number) < value);

type CalendarFrequency = 'YEARLY' | 'MONTHLY' | 'WEEKLY' | 'DAILY';
const periodDays: Record<CalendarFrequency, number> = { DAILY: 1, WEEKLY: 7, MONTHLY: 31, YEARLY: 366 };

/** The parts of a rule that `directOccurrences` can expand, independent of its start; see there. */
interface CalendarShape {
  frequency: CalendarFrequency;
  byMonth: readonly number[] | null;
  byWeekday: readonly number[] | null;
  byMonthDay: readonly number[] | null;
  byHour: readonly number[] | null;
  byMinute: readonly number[] | null;
  bySecond: readonly number[] | null;
}

const calendarShapes = new WeakMap<Recurrence, CalendarShape | null>();

function calendarShape(recurrence: Recurrence): CalendarShape | null {
  let shape = calendarShapes.get(recurrence);
  if (shape === undefined) {
    shape = computeCalendarShape(recurrence);
    calendarShapes.set(recurrence, shape);
  }
  return shape;
}

function computeCalendarShape({ frequency, parts }: Recurrence): CalendarShape | null {
  if (frequency !== 'YEARLY' && frequency !== 'MONTHLY' && frequency !== 'WEEKLY' && frequency !== 'DAILY') return null;
  if (parts.bysetpos || parts.byweekno || parts.byyearday) return null;
  const weekdays = parts.byweekday as (number | { weekday: number })[] | undefined;
  // A numbered weekday (1MO, -1FR) of a month or year is not a plain day filter; in a week or a day, its number is ignored.
  if ((frequency === 'YEARLY' || frequency === 'MONTHLY') && weekdays?.some((day) => typeof day !== 'number')) return null;
  const list = (value: unknown): readonly number[] | null => (value === undefined ? null : (value as number[]));
  const shape: CalendarShape = {
    frequency,
    byMonth: list(parts.bymonth),
    byWeekday: weekdays === undefined ? null : weekdays.map((day) => (typeof day === 'number' ? day : day.weekday)),
    byMonthDay: list(parts.bymonthday),
    byHour: list(parts.byhour),
    byMinute: list(parts.byminute),
    bySecond: list(parts.bysecond),
  };
  // `rrule` emits the times of a day in the order of these lists: only sorted ones give ascending occurrences.
  return [shape.byHour, shape.byMinute, shape.bySecond].every((times) => times === null || ascending(times)) ? shape : null;
}

/**
 * Visits occurrence starts (wall-clock seconds) in ascending order while `visit` returns true: every one from some
 * time at or before `fromWallSec` on (at most a period before it).
 */
export type OccurrenceWalk = (fromWallSec: number, visit: (wallSec: number) => boolean) => void;

/** The occurrences of one rule from one start, for `directOccurrences`. */
class CalendarOccurrences {
  readonly #frequency: CalendarFrequency;
  readonly #interval: number;
  readonly #count: number | null;
  readonly #startWall: number;
  readonly #untilWall: number | null;
  readonly #startDay: number;
  readonly #months: readonly number[] | null;
  readonly #weekdays: readonly number[] | null;
  readonly #monthDays: readonly number[] | null;
  /** Occurrence times within a day, in seconds, ascending. */
  readonly #times: readonly number[];
  /** First day of the week of the start (weeks begin on WKST). */
  readonly #startWeek: number;
  readonly #startYear: number;
  readonly #startMonth: number;
  /** For weekly rules kept by weekday alone, the kept days as offsets from the week's first day, ascending. */
  readonly #weekOffsets: readonly number[] | null;

  constructor(shape: CalendarShape, recurrence: Recurrence, startWall: number, untilWall: number | null) {
    this.#frequency = shape.frequency;
    this.#interval = recurrence.interval;
    this.#count = recurrence.count;
    this.#startWall = startWall;
    this.#untilWall = untilWall;
    const startDay = Math.floor(startWall / daySec);
    const startTime = startWall - startDay * daySec;
    const start = civilFromDays(startDay);
    this.#startDay = startDay;
    this.#startYear = Math.floor(start / 512);
    this.#startMonth = Math.floor(start / 32) % 16;
    // The defaults `rrule` takes from DTSTART when no BY* part names the days, and for the time of day.
    let { byMonth, byWeekday, byMonthDay } = shape;
    if (byWeekday === null && byMonthDay === null) {
      if (shape.frequency === 'YEARLY') byMonth ??= [this.#startMonth];
      if (shape.frequency === 'YEARLY' || shape.frequency === 'MONTHLY') byMonthDay = [start % 32];
      if (shape.frequency === 'WEEKLY') byWeekday = [weekdayOf(startDay)];
    }
    this.#months = byMonth;
    this.#weekdays = byWeekday;
    this.#monthDays = byMonthDay;
    const times: number[] = [];
    for (const hour of shape.byHour ?? [Math.floor(startTime / 3600)]) {
      for (const minute of shape.byMinute ?? [Math.floor(startTime / 60) % 60]) {
        for (const second of shape.bySecond ?? [startTime % 60]) times.push(hour * 3600 + minute * 60 + second);
      }
    }
    this.#times = times;
    const wkst = (recurrence.parts.wkst as number | undefined) ?? 0;
    this.#startWeek = startDay - ((weekdayOf(startDay) - wkst + 7) % 7);
    // A weekly rule kept by weekday alone: its days are fixed offsets from each week's first day.
    this.#weekOffsets =
      shape.frequency === 'WEEKLY' && byWeekday !== null && byMonth === null && byMonthDay === null
        ? [...new Set(byWeekday.map((weekday) => (weekday - wkst + 7) % 7))].sort((a, b) => a - b)
        : null;
  }

  walk(fromWall: number, visit: (wall: number) => boolean): void {
    const from = Math.max(fromWall, this.#startWall);
    const fromDay = Math.floor(from / daySec);
    const interval = this.#interval;
    const walk = { from, visit, remaining: this.#count ?? Infinity };
    switch (this.#frequency) {
      case 'DAILY':
        for (let day = this.#startDay + Math.ceil((fromDay - this.#startDay) / interval) * interval; this.#days(walk, day, 1); day += interval);
        return;
      case 'WEEKLY': {
        const fromWeek = fromDay - ((fromDay - this.#startWeek) % 7);
        const firstWeek = this.#startWeek + Math.ceil((fromWeek - this.#startWeek) / (7 * interval)) * 7 * interval;
        if (this.#weekOffsets !== null) for (let week = firstWeek; this.#weekDays(walk, week, this.#weekOffsets); week += 7 * interval);
        else for (let week = firstWeek; this.#days(walk, week, 7); week += 7 * interval);
        return;
      }
      case 'MONTHLY': {
        const fromDate = civilFromDays(fromDay);
        const startIndex = this.#startYear * 12 + this.#startMonth - 1;
        const fromIndex = Math.floor(fromDate / 512) * 12 + (Math.floor(fromDate / 32) % 16) - 1;
        for (let index = startIndex + Math.ceil((fromIndex - startIndex) / interval) * interval; ; index += interval) {
          const year = Math.floor(index / 12);
          if (!this.#month(walk, year, index - year * 12 + 1)) return;
        }
      }
      case 'YEARLY': {
        const fromYear = Math.floor(civilFromDays(fromDay) / 512);
        for (let year = this.#startYear + Math.ceil((fromYear - this.#startYear) / interval) * interval; ; year += interval) {
          for (let month = 1; month <= 12; month++) if (!this.#month(walk, year, month)) return;
        }
      }
    }
  }

  /** Visits the occurrences of the kept days of the week starting on day `week`; false once the walk is over. */
  #weekDays(walk: Walk, week: number, offsets: readonly number[]): boolean {
    for (const offset of offsets) {
      if (week + offset > lastDay) return false;
      if (!this.#visitDay(walk, week + offset)) return false;
    }
    return true;
  }

  /** Visits the occurrences of `count` days from `first`; false once the walk is over. */
  #days(walk: Walk, first: number, count: number): boolean {
    const weekdays = this.#weekdays;
    for (let day = first; day < first + count; day++) {
      // The weekday test first: it needs no calendar date, and weekly rules keep few days of each week.
      if (weekdays !== null && !weekdays.includes(weekdayOf(day))) continue;
      const date = civilFromDays(day);
      const year = Math.floor(date / 512);
      const month = Math.floor(date / 32) % 16;
      if (!this.#day(walk, day, year, month, date % 32, daysInMonth(year, month))) return false;
    }
    return true;
  }

  #month(walk: Walk, year: number, month: number): boolean {
    if (year > lastYear) return false;
    if (this.#months !== null && !this.#months.includes(month)) return true;
    const first = daysFromCivil(year, month, 1);
    const length = daysInMonth(year, month);
    for (let monthDay = 1; monthDay <= length; monthDay++) {
      if (!this.#day(walk, first + monthDay - 1, year, month, monthDay, length)) return false;
    }
    return true;
  }

  /** Visits the occurrences of one day if the rule keeps it; false once the walk is over. */
  #day(walk: Walk, day: number, year: number, month: number, monthDay: number, monthLength: number): boolean {
    if (year > lastYear) return false;
    if (this.#months !== null && !this.#months.includes(month)) return true;
    if (this.#weekdays !== null && !this.#weekdays.includes(weekdayOf(day))) return true;
    if (this.#monthDays !== null && !this.#monthDays.includes(monthDay) && !this.#monthDays.includes(monthDay - monthLength - 1)) return true;
    return this.#visitDay(walk, day);
  }

  /** Visits the occurrences of a kept day; false once the walk is over. */
  #visitDay(walk: Walk, day: number): boolean {
    for (const time of this.#times) {
      const wall = day * daySec + time;
      if (wall < walk.from) continue;
      if (this.#untilWall !== null && wall > this.#untilWall) return false;
      if (!walk.visit(wall) || --walk.remaining === 0) return false;
    }
    return true;
  }
}

/** One walk in progress: where it starts, whom it tells, and how many occurrences COUNT still allows. */
interface Walk {
  from: number;
  visit: (wall: number) => boolean;
  remaining: number;
}

/** Calendar arithmetic here covers whole-second starts of years 1 to 9999 (`rrule` keeps DTSTART's milliseconds). */
const calendarStart = (wallSec: number): boolean =>
  Number.isInteger(wallSec) && wallSec >= daysFromCivil(1, 1, 1) * daySec && wallSec < daysFromCivil(lastYear + 1, 1, 1) * daySec;

/** Lengths, in wall-clock seconds, of the periods whose sets of occurrences do not depend on where DTSTART is in them. */
const fixedPeriods: Partial<Record<FrequencyName, number>> = { SECONDLY: 1, MINUTELY: 60, HOURLY: 3600, DAILY: daySec };

/**
 * The occurrences of a recurrence starting at a wall-clock time: computed directly for the common rules (see
 * `directOccurrences`), else by `rrule`, restarted a whole number of periods after the start (when no COUNT numbers
 * occurrences from the first one) so that a walk does not iterate from the start. A walk from any wall-clock time
 * after the start costs a few periods, as long as `span` is not null: the longest period.
 */
export function occurrenceWalk(recurrence: Recurrence, startWallSec: number, untilWallSec: number | null): { walk: OccurrenceWalk; span: number | null } {
  const direct = directOccurrences(recurrence, startWallSec, untilWallSec);
  if (direct) return { walk: direct.walk, span: recurrence.count === null ? direct.span : null };
  const fromStart: OccurrenceWalk = (_, visit) => recurrenceRule(recurrence, startWallSec, untilWallSec).all((date) => visit(date.getTime() / 1000));
  if (recurrence.count !== null) return { walk: fromStart, span: null };
  const { frequency, interval, parts } = recurrence;
  const fixed = fixedPeriods[frequency];
  if (fixed !== undefined) {
    const period = fixed * interval;
    // The same rule from a later period start: DTSTART's time of day, the defaults of BY* parts, stay; `rrule` takes
    // the whole period's set (BYSETPOS included) before dropping what precedes DTSTART.
    const walk: OccurrenceWalk = (fromWallSec, visit) => {
      const periods = Math.max(0, Math.floor((fromWallSec - startWallSec) / period));
      recurrenceRule(recurrence, startWallSec + periods * period, untilWallSec).all((date) => visit(date.getTime() / 1000));
    };
    return { walk, span: period };
  }
  if (!calendarStart(startWallSec)) return { walk: fromStart, span: null };
  // WEEKLY, MONTHLY and YEARLY: `rrule` builds the first period's set from DTSTART's day on (which would change what
  // BYSETPOS picks), so restart at 00:00 on the first day of a later period, with the defaults it would take from the
  // real start (time of day; weekday, or day of month and month, when no BY* part names the days) given explicitly.
  const startDay = Math.floor(startWallSec / daySec);
  const startTime = startWallSec - startDay * daySec;
  const start = civilFromDays(startDay);
  const startMonth = Math.floor(start / 32) % 16;
  const pinned: Partial<RRuleOptions> = {
    byhour: parts.byhour ?? [Math.floor(startTime / 3600)],
    byminute: parts.byminute ?? [Math.floor(startTime / 60) % 60],
    bysecond: parts.bysecond ?? [startTime % 60],
  };
  if (!parts.byweekno && !parts.byyearday && !parts.bymonthday && !parts.byweekday) {
    if (frequency === 'WEEKLY') pinned.byweekday = [weekdayOf(startDay)];
    else pinned.bymonthday = [start % 32];
    if (frequency === 'YEARLY') pinned.bymonth = parts.bymonth ?? [startMonth];
  }
  const restart = (periodStartDay: number, visit: (wallSec: number) => boolean) =>
    recurrenceRule(recurrence, periodStartDay * daySec, untilWallSec, pinned).all((date) => visit(date.getTime() / 1000));
  if (frequency === 'WEEKLY') {
    const weekDays = 7 * interval;
    const startWeek = startDay - ((weekdayOf(startDay) - ((parts.wkst as number | undefined) ?? 0) + 7) % 7);
    const walk: OccurrenceWalk = (fromWallSec, visit) => {
      const periods = Math.floor((Math.floor(fromWallSec / daySec) - startWeek) / weekDays);
      if (periods <= 0) fromStart(fromWallSec, visit);
      else restart(startWeek + periods * weekDays, visit);
    };
    return { walk, span: weekDays * daySec };
  }
  const months = frequency === 'MONTHLY' ? interval : 12 * interval;
  const startIndex = Math.floor(start / 512) * 12 + startMonth - 1;
  const walk: OccurrenceWalk = (fromWallSec, visit) => {
    const from = civilFromDays(Math.floor(fromWallSec / daySec));
    const periods = Math.floor((Math.floor(from / 512) * 12 + (Math.floor(from / 32) % 16) - 1 - startIndex) / months);
    const index = startIndex + periods * months;
    if (periods <= 0) fromStart(fromWallSec, visit);
    else restart(daysFromCivil(Math.floor(index / 12), (index % 12) + 1, 1), visit);
  };
  return { walk, span: months * 31 * daySec };
}

/**
 * The occurrences of the common rules computed with calendar arithmetic, as `rrule` would give them, without its
 * per-call option parsing and year tables: DAILY, WEEKLY, MONTHLY and YEARLY rules whose days are the days of each
 * period kept by BYMONTH, BYDAY (plain weekdays), BYMONTHDAY, at the times of BYHOUR × BYMINUTE × BYSECOND. Other
 * rules (BYSETPOS, BYWEEKNO, BYYEARDAY, numbered weekdays of a month or year, unsorted time lists) and other
 * starts than `calendarStart` ones give null. `span` bounds the wall-clock length of one period; with COUNT, walks
 * must start at the start.
 */
function directOccurrences(recurrence: Recurrence, startWallSec: number, untilWallSec: number | null): { walk: OccurrenceWalk; span: number } | null {
  const shape = calendarShape(recurrence);
  if (shape === null || !calendarStart(startWallSec)) return null;
  const occurrences = new CalendarOccurrences(shape, recurrence, startWallSec, untilWallSec);
  return { walk: (fromWallSec, visit) => occurrences.walk(fromWallSec, visit), span: periodDays[shape.frequency] * recurrence.interval * daySec };
}
