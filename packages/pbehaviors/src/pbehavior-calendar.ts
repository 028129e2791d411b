import { inject, injectable } from 'tsyringe';
import { HttpError, injectRef, kernelRefs, type Clock, type Filter } from '@vigie/kernel';
import { entityReaderRef, type EntityReader } from '@vigie/context-graph';
import { pbehaviorsConfig, type PbehaviorsConfig } from './config.js';
import TinyQueue from 'tinyqueue';
import { PbehaviorIndex, timingKey, type IndexedPbehavior } from './pbehavior-index.js';
import { TimeZone } from './time-zone.js';

/** One occurrence of a pbehavior in the calendar. */
export interface Timespan {
  pbehavior: { _id: string; name: string; type_: string; reason: string };
  /** Epoch seconds. */
  start: number;
  end: number;
  /** The same instants in the requested zone, ISO 8601 with the offset (`2025-03-30T03:00:00+02:00`). */
  start_local: string;
  end_local: string;
  /** Whether this occurrence is the one in force now. */
  active: boolean;
}

export interface CalendarQuery {
  from: number;
  to: number;
  entity?: string | undefined;
  /** A checked entity filter: the pbehaviors concerning any entity it selects. */
  filter?: Filter | undefined;
  timezone?: string | undefined;
  /** Timespans per page (default `defaultCalendarLimit`) and the page wanted, from 1. */
  limit?: number | undefined;
  page?: number | undefined;
}

/** Timespans in one page of the calendar when the query does not say. */
export const defaultCalendarLimit = 1000;

export interface Calendar {
  from: number;
  to: number;
  timezone: string;
  /** Every occurrence in the window, all pages together. */
  count: number;
  page: number;
  limit: number;
  /** The page's occurrences, by start then pbehavior id. */
  timespans: Timespan[];
}

/** The occurrences of one pbehavior in the window, and how far the page's merge has read them. */
interface Lane {
  entry: IndexedPbehavior;
  starts: readonly number[];
  duration: number;
  next: number;
}

/** Lanes by their next start, then by pbehavior id: the calendar's order. */
const laneOrder = (a: Lane, b: Lane): number =>
  (a.starts[a.next] as number) - (b.starts[b.next] as number) || (a.entry.record._id < b.entry.record._id ? -1 : a.entry.record._id > b.entry.record._id ? 1 : 0);

/**
 * Writes instants as ISO 8601 in a zone with their offset (`2025-03-30T03:00:00+02:00`). A calendar writes hundreds
 * of thousands: the date part and the offset text are made once per day and per offset.
 */
class LocalTimes {
  readonly #days = new Map<number, string>();
  readonly #offsets = new Map<number, string>();

  constructor(private readonly zone: TimeZone) {}

  iso(epochSec: number): string {
    const offset = this.zone.offsetAt(epochSec);
    const wall = epochSec + offset;
    const day = Math.floor(wall / 86400);
    let date = this.#days.get(day);
    if (date === undefined) {
      date = new Date(day * 86_400_000).toISOString().slice(0, 11);
      this.#days.set(day, date);
    }
    let suffix = this.#offsets.get(offset);
    if (suffix === undefined) {
      const minutes = Math.abs(offset) / 60;
      suffix = `${offset < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
      this.#offsets.set(offset, suffix);
    }
    const time = wall - day * 86400;
    return `${date}${two(Math.floor(time / 3600))}:${two(Math.floor(time / 60) % 60)}:${two(time % 60)}${suffix}`;
  }
}

const two = (value: number): string => (value < 10 ? `0${value}` : String(value));

/**
 * The maintenance calendar: the occurrences of the enabled pbehaviors in a time window, expanded from each one's
 * schedule (the compiled schedules of the pbehavior index: rrule, exdates, time zone), for one entity, the entities
 * of a filter, or all; every occurrence counted, one page of them written.
 *
 * A year of 10,000 weekly pbehaviors holds half a million occurrences: each pbehavior's are expanded as bare starts
 * (once per distinct timing: pbehaviors made together share theirs), and only the page is merged out of them in
 * order and written as entries with local times. At most `[pbehaviors] max_timespans` occurrences in the window.
 */
@injectable()
export class PbehaviorCalendar {
  constructor(
    @inject(PbehaviorIndex) private readonly index: PbehaviorIndex,
    @injectRef(entityReaderRef) private readonly entities: EntityReader,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(pbehaviorsConfig.ref) private readonly config: PbehaviorsConfig,
  ) {}

  async timespans(query: CalendarQuery): Promise<Calendar> {
    const zoneName = query.timezone ?? this.config.default_timezone;
    if (!TimeZone.isValid(zoneName)) throw new HttpError(400, `timezone ${zoneName} is not an IANA time zone such as Europe/Paris or UTC`);
    const zone = TimeZone.named(zoneName);
    const limit = query.limit ?? defaultCalendarLimit;
    const page = query.page ?? 1;
    const index = await this.index.ready();
    const max = this.config.max_timespans;
    const startsByTiming = new Map<string, readonly number[]>();
    const lanes: Lane[] = [];
    let count = 0;
    for (const entry of await this.#selected(index, query)) {
      const schedule = entry.schedule;
      if (!entry.record.enabled || !schedule) continue;
      const timing = timingKey(entry.record);
      let starts = startsByTiming.get(timing);
      if (starts === undefined) {
        // One more than the budget left is enough to know the window holds too many.
        starts = schedule.startsIn(query.from, query.to, max - count + 1);
        startsByTiming.set(timing, starts);
      }
      count += starts.length;
      if (count > max) throw new HttpError(400, `the window holds more than ${max} timespans: narrow the window or the selection`);
      if (starts.length > 0) lanes.push({ entry, starts, duration: schedule.duration, next: 0 });
    }
    return { from: query.from, to: query.to, timezone: zone.name, count, page, limit, timespans: this.#page(lanes, (page - 1) * limit, limit, new LocalTimes(zone)) };
  }

  /** Merges the lanes in calendar order, skipping `skip` occurrences, into at most `limit` entries. */
  #page(lanes: Lane[], skip: number, limit: number, local: LocalTimes): Timespan[] {
    const queue = new TinyQueue(lanes, laneOrder);
    const now = this.clock.nowSec();
    const timespans: Timespan[] = [];
    const described = new Map<Lane, { pbehavior: Timespan['pbehavior']; activeStart: number | null }>();
    for (let position = 0; position < skip + limit && queue.length > 0; position++) {
      const lane = queue.pop() as Lane;
      const start = lane.starts[lane.next] as number;
      lane.next++;
      if (lane.next < lane.starts.length) queue.push(lane);
      if (position < skip) continue;
      let about = described.get(lane);
      if (about === undefined) {
        const { record, schedule } = lane.entry;
        const { _id, name, type_, reason } = record;
        const current = schedule?.isActiveAt(now) ? schedule.windowAt(now) : null;
        about = { pbehavior: { _id, name, type_, reason }, activeStart: current?.start ?? null };
        described.set(lane, about);
      }
      const end = start + lane.duration;
      timespans.push({ pbehavior: about.pbehavior, start, end, start_local: local.iso(start), end_local: local.iso(end), active: about.activeStart === start });
    }
    return timespans;
  }

  async #selected(index: PbehaviorIndex, query: CalendarQuery): Promise<Iterable<IndexedPbehavior>> {
    if (query.entity === undefined && query.filter === undefined) return index.entries();
    const ids = query.filter === undefined ? [] : await this.entities.ids(query.filter);
    if (query.entity !== undefined) ids.push(query.entity);
    const selected = new Set<IndexedPbehavior>();
    for (const id of ids) for (const entry of index.on(id)) selected.add(entry);
    return selected;
  }
}
