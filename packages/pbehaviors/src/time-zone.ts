import { IANAZone } from 'luxon';

/**
 * Offsets are cached per day when a day has one offset, else per quarter hour: real zone transitions are far apart
 * and fall on quarter-hour boundaries.
 */
const dayMs = 86_400_000;
const quarterHourMs = 15 * 60 * 1000;
/** Bound on each offset cache of one zone; it is simply cleared when reached. */
const maxCachedBuckets = 200_000;
/** The offset at the end of a formatted time with `timeZoneName: 'longOffset'`: `GMT`, `GMT+02:00`, `GMT-03:30`. */
const longOffset = /GMT(?:([+-])([0-9]{2}):([0-9]{2}))?$/;

/**
 * An IANA time zone with the two conversions recurrence rules need: a real instant to its wall-clock time, and a
 * wall-clock time back to a real instant. Wall-clock times are "floating" epoch seconds (the wall-clock fields read
 * as if they were UTC), which lets `rrule` iterate without time zones and without DST surprises.
 */
export class TimeZone {
  static readonly #zones = new Map<string, TimeZone>();

  readonly name: string;
  readonly #zone: IANAZone;
  /**
   * Formats an instant's hour with the zone's offset: a few times faster than Luxon's offset (which reads every
   * field), the cost of filling the offset caches. Null where the runtime lacks `longOffset`.
   */
  readonly #offsetFormat: Intl.DateTimeFormat | null;
  /** Offsets of whole days and quarter hours by index; null marks one with a change inside. */
  readonly #dayOffsets = new Map<number, number | null>();
  readonly #quarterOffsets = new Map<number, number | null>();
  /** By wall-clock day: the one offset its times convert with, or null near a change (converted the long way). */
  readonly #wallDayOffsets = new Map<number, number | null>();

  private constructor(name: string) {
    this.name = name;
    this.#zone = IANAZone.create(name);
    try {
      this.#offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: name, hour: 'numeric', timeZoneName: 'longOffset' });
    } catch {
      this.#offsetFormat = null;
    }
  }

  /** UTC offset in minutes at an instant (epoch milliseconds), straight from the zone data. */
  #offsetMinutes(ms: number): number {
    const match = this.#offsetFormat ? longOffset.exec(this.#offsetFormat.format(ms)) : null;
    // Offsets with seconds (local mean times of old dates) are not written as ±hh:mm: Luxon gives them.
    if (!match) return this.#zone.offset(ms);
    if (match[1] === undefined) return 0;
    const minutes = Number(match[2]) * 60 + Number(match[3]);
    return match[1] === '-' ? -minutes : minutes;
  }

  static isValid(name: string): boolean {
    return name !== '' && IANAZone.isValidZone(name);
  }

  /** The zone named `name`; callers check `isValid` first. */
  static named(name: string): TimeZone {
    let zone = TimeZone.#zones.get(name);
    if (!zone) {
      if (!TimeZone.isValid(name)) throw new Error(`unknown time zone ${name}`);
      zone = new TimeZone(name);
      TimeZone.#zones.set(name, zone);
    }
    return zone;
  }

  /** UTC offset in seconds at a real instant (epoch seconds). */
  offsetAt(epochSec: number): number {
    const ms = epochSec * 1000;
    return (
      this.#bucketOffset(this.#dayOffsets, Math.floor(ms / dayMs), dayMs) ??
      this.#bucketOffset(this.#quarterOffsets, Math.floor(ms / quarterHourMs), quarterHourMs) ??
      this.#offsetMinutes(ms) * 60
    );
  }

  /** The offset of a whole bucket, or null when it changes inside it; both are remembered. */
  #bucketOffset(cache: Map<number, number | null>, bucket: number, size: number): number | null {
    const cached = cache.get(bucket);
    if (cached !== undefined) return cached;
    const atStart = this.#offsetMinutes(bucket * size);
    const atEnd = this.#offsetMinutes((bucket + 1) * size - 1);
    const offset = atStart === atEnd ? atStart * 60 : null;
    if (cache.size >= maxCachedBuckets) cache.clear();
    cache.set(bucket, offset);
    return offset;
  }

  /** The offset of the instants from day `first` to before day `end` (UTC day numbers) when it is one, else null. */
  #steadyOffset(first: number, end: number): number | null {
    const offset = this.#bucketOffset(this.#dayOffsets, first, dayMs);
    for (let day = first + 1; day < end && offset !== null; day++) {
      if (this.#bucketOffset(this.#dayOffsets, day, dayMs) !== offset) return null;
    }
    return offset;
  }

  /** The wall-clock time of a real instant, as floating seconds. */
  toWallClock(epochSec: number): number {
    return epochSec + this.offsetAt(epochSec);
  }

  /**
   * The real instant of a wall-clock time. An ambiguous time (the repeated hour when clocks go back) is its first
   * occurrence; a time that does not exist (the skipped hour when clocks go forward) is moved forward by the gap,
   * as the clocks were.
   */
  toInstant(wallSec: number): number {
    const wallDay = Math.floor(wallSec / 86400);
    let steady = this.#wallDayOffsets.get(wallDay);
    if (steady === undefined) {
      // One offset for the instants a day either side of the wall-clock day: every time of that day converts with it.
      steady = this.#steadyOffset(wallDay - 1, wallDay + 2);
      if (this.#wallDayOffsets.size >= maxCachedBuckets) this.#wallDayOffsets.clear();
      this.#wallDayOffsets.set(wallDay, steady);
    }
    if (steady !== null) return wallSec - steady;
    const around = [this.offsetAt(wallSec - 86400), this.offsetAt(wallSec), this.offsetAt(wallSec + 86400)];
    let earliest: number | null = null;
    for (const offset of around) {
      const candidate = wallSec - offset;
      if (this.offsetAt(candidate) === offset && (earliest === null || candidate < earliest)) earliest = candidate;
    }
    if (earliest !== null) return earliest;
    // In a gap: keep the offset in force before it.
    return wallSec - Math.min(...around);
  }
}
