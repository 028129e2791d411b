import { occurrenceWalk, parseRecurrence, type OccurrenceWalk, type Recurrence } from './recurrence.js';
import { TimeZone } from './time-zone.js';

/** The fields of a pbehavior that decide when it is active. */
export interface ScheduleSpec {
  tstart: number;
  tstop: number;
  /** An RRULE value, or null/empty for a single window. */
  rrule: string | null;
  /** IANA zone in which a recurrence's wall-clock times are read. */
  timezone: string;
  /** Occurrence starts (epoch seconds) removed from the recurrence. */
  exdate: readonly number[];
}

/**
 * Wall-clock times within this distance of a query time are converted exactly before being compared with it; farther
 * ones cannot be on the other side of it (no zone shifts its offset by more than this in one go).
 */
const conversionMargin = 3 * 3600;

/** Parsed rules by text: many pbehaviors share a few rules. Cleared when full. */
const parsedRules = new Map<string, Recurrence>();
const maxParsedRules = 10_000;

function parsedRule(text: string): Recurrence {
  let recurrence = parsedRules.get(text);
  if (!recurrence) {
    recurrence = parseRecurrence(text);
    if (parsedRules.size >= maxParsedRules) parsedRules.clear();
    parsedRules.set(text, recurrence);
  }
  return recurrence;
}

/** Shared by the many schedules without exdates. */
const noExclusions: ReadonlySet<number> = new Set();

interface RecurringParts {
  recurrence: Recurrence;
  zone: TimeZone;
  startWall: number;
  untilWall: number | null;
  excludedWalls: ReadonlySet<number>;
  /** Occurrence starts, as wall-clock times, from about a given one on. */
  walk: OccurrenceWalk;
  /** The longest period when walks may start anywhere, else null: they must start at the start. */
  span: number | null;
}

/** One occurrence of a pbehavior: active from `start` to `end` (epoch seconds). */
export interface Window {
  start: number;
  end: number;
}

interface Occurrences {
  /** Start of the last occurrence strictly before the query time, or null. */
  last: number | null;
  /** Start of the first occurrence at or after the query time, or null. */
  next: number | null;
}

/**
 * When a pbehavior is active (REFERENCE §5.9). Without a recurrence: on [tstart, tstop], both ends included. With
 * one: the recurrence starts at `tstart` read as a wall-clock time in `timezone` (so occurrences keep their local time
 * across DST changes), loses the `exdate` starts, and each occurrence lasts `tstop − tstart`; the pbehavior is active
 * at t when the last occurrence starting strictly before t has not ended (its end included).
 *
 * Recurring answers are remembered for the interval over which they cannot change (until the next occurrence
 * starts), so checking many pbehaviors again and again at the current time costs a comparison each.
 */
export class Schedule {
  readonly #spec: ScheduleSpec;
  readonly #duration: number;
  readonly #recurring: RecurringParts | null;
  /** Valid for query times in (after, upTo]: the last occurrence start before them. */
  #memo: { after: number; upTo: number; last: number | null } | null = null;

  /** Throws RecurrenceError for a bad rule; the time zone must be valid (see TimeZone.isValid). */
  constructor(spec: ScheduleSpec) {
    this.#spec = spec;
    this.#duration = spec.tstop - spec.tstart;
    if (!spec.rrule) {
      this.#recurring = null;
      return;
    }
    const recurrence = parsedRule(spec.rrule);
    const zone = TimeZone.named(spec.timezone);
    const until = recurrence.until;
    const startWall = zone.toWallClock(spec.tstart);
    const untilWall = until === null ? null : until.kind === 'instant' ? zone.toWallClock(until.epochSec) : until.wallSec;
    this.#recurring = {
      recurrence,
      zone,
      startWall,
      untilWall,
      excludedWalls: spec.exdate.length === 0 ? noExclusions : new Set(spec.exdate.map((start) => zone.toWallClock(start))),
      ...occurrenceWalk(recurrence, startWall, untilWall),
    };
  }

  isActiveAt(t: number): boolean {
    if (!this.#recurring) return this.#spec.tstart <= t && t <= this.#spec.tstop;
    const last = this.#lastStartBefore(t);
    return last !== null && t <= last + this.#duration;
  }

  /**
   * The window of the last occurrence that started by t (for a recurrence: strictly before t, as activeness has it),
   * or null when none did. Active at t ⇔ there is one and t ≤ its end; when t is past its end, the end is when the
   * pbehavior last became inactive.
   */
  windowAt(t: number): Window | null {
    if (!this.#recurring) return t >= this.#spec.tstart ? { start: this.#spec.tstart, end: this.#spec.tstop } : null;
    const last = this.#lastStartBefore(t);
    return last === null ? null : { start: last, end: last + this.#duration };
  }

  #lastStartBefore(t: number): number | null {
    let memo = this.#memo;
    if (!memo || t <= memo.after || t > memo.upTo) {
      const { last, next } = this.#occurrencesAround(t);
      memo = { after: last ?? -Infinity, upTo: next ?? Infinity, last };
      this.#memo = memo;
    }
    return memo.last;
  }

  /**
   * The end of the last occurrence that started at or before t, capped at t (t itself while one is active), or null
   * when none started yet: "the last pbehavior tstop" of the alarm-filter engine (REFERENCE §5.6).
   */
  lastEndAt(t: number): number | null {
    if (!this.#recurring) return this.#spec.tstart <= t ? Math.min(this.#spec.tstop, t) : null;
    const { last } = this.#occurrencesAround(t);
    return last === null ? null : Math.min(last + this.#duration, t);
  }

  /** How long each occurrence lasts (`tstop − tstart`). */
  get duration(): number {
    return this.#duration;
  }

  /**
   * The occurrences that overlap [from, to] (epoch seconds), in order: for a recurrence, its starts in the zone less
   * the exdates, each lasting `tstop − tstart`. Walks only the periods around the window (from the start with COUNT);
   * stops at `max` occurrences.
   */
  windowsIn(from: number, to: number, max = Infinity): Window[] {
    const duration = this.#duration;
    return this.startsIn(from, to, max).map((start) => ({ start, end: start + duration }));
  }

  /** The starts of `windowsIn`'s occurrences, without an object each (the calendar expands hundreds of thousands). */
  startsIn(from: number, to: number, max = Infinity): number[] {
    const recurring = this.#recurring;
    if (!recurring) return this.#spec.tstart <= to && this.#spec.tstop >= from ? [this.#spec.tstart] : [];
    const { zone, excludedWalls, walk, span, startWall } = recurring;
    const duration = this.#duration;
    const starts: number[] = [];
    const fromWall = span === null ? startWall : Math.max(startWall, zone.toWallClock(from - duration) - conversionMargin);
    const toWall = zone.toWallClock(to) + conversionMargin;
    walk(fromWall, (wall) => {
      if (wall > toWall) return false;
      if (excludedWalls.has(wall)) return true;
      const start = zone.toInstant(wall);
      if (start <= to && start + duration >= from) starts.push(start);
      return starts.length < max;
    });
    return starts;
  }

  /** Expired at t: no occurrence ends after t (REFERENCE §5.9); an endless recurrence never expires. */
  isExpiredAt(t: number): boolean {
    const recurring = this.#recurring;
    if (!recurring) return t >= this.#spec.tstop;
    if (recurring.recurrence.count === null && recurring.untilWall === null) return false;
    return this.#occurrencesAround(t - this.#duration + 1).next === null;
  }

  #occurrencesAround(t: number): Occurrences {
    const recurring = this.#recurring as RecurringParts;
    const wallT = recurring.zone.toWallClock(t);
    if (recurring.span !== null) {
      // Iterating from tstart costs one step per occurrence since then: start a few periods before t instead, and
      // look further back only when no occurrence turned up (restrictive BY* parts, exclusions).
      const horizon = recurring.untilWall === null ? wallT : Math.min(wallT, recurring.untilWall + 1);
      for (let lookBack = 1; ; lookBack *= 8) {
        const from = horizon - conversionMargin - lookBack * recurring.span;
        if (from <= recurring.startWall) break;
        const found = this.#scan(from, t, wallT);
        if (found.last !== null) return found;
      }
    }
    return this.#scan(recurring.startWall, t, wallT);
  }

  #scan(fromWall: number, t: number, wallT: number): Occurrences {
    const { zone, excludedWalls, walk } = this.#recurring as RecurringParts;
    let lastWall: number | null = null;
    let lastInstant: number | null = null;
    let next: number | null = null;
    walk(fromWall, (wall) => {
      if (excludedWalls.has(wall)) return true;
      if (wall < wallT - conversionMargin) {
        lastWall = wall;
        lastInstant = null;
        return true;
      }
      const instant = zone.toInstant(wall);
      if (instant < t) {
        lastWall = wall;
        lastInstant = instant;
        return true;
      }
      next = instant;
      return false;
    });
    const last = lastWall === null ? null : (lastInstant ?? zone.toInstant(lastWall));
    return { last, next };
  }
}
