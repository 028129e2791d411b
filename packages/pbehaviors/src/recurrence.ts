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
