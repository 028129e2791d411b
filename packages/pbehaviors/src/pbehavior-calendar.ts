import { inject, injectable } from 'tsyringe';
import { HttpError, injectRef, kernelRefs, type Clock, type Filter } from '@vigie/kernel';
import { entityReaderRef, type EntityReader } from '@vigie/context-graph';
import { pbehaviorsConfig, type PbehaviorsConfig } from './config.js';
import { PbehaviorIndex, type IndexedPbehavior } from './pbehavior-index.js';
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
}

export interface Calendar {
  from: number;
  to: number;
  timezone: string;
  count: number;
  timespans: Timespan[];
}

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
 * of a filter, or all. At most `[pbehaviors] max_timespans` in one answer.
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
    const local = new LocalTimes(zone);
    const index = await this.index.ready();
    const now = this.clock.nowSec();
    const timespans: Timespan[] = [];
    for (const entry of await this.#selected(index, query)) {
      if (!entry.record.enabled || !entry.schedule) continue;
      const windows = entry.schedule.windowsIn(query.from, query.to);
      if (timespans.length + windows.length > this.config.max_timespans) {
        throw new HttpError(400, `the window holds more than ${this.config.max_timespans} timespans: narrow the window or the selection`);
      }
      const current = windows.length > 0 && entry.schedule.isActiveAt(now) ? entry.schedule.windowAt(now) : null;
      const { _id, name, type_, reason } = entry.record;
      const pbehavior = { _id, name, type_, reason };
      for (const window of windows) {
        timespans.push({
          pbehavior,
          start: window.start,
          end: window.end,
          start_local: local.iso(window.start),
          end_local: local.iso(window.end),
          active: current !== null && current.start === window.start,
        });
      }
    }
    timespans.sort((a, b) => a.start - b.start || (a.pbehavior._id < b.pbehavior._id ? -1 : 1));
    return { from: query.from, to: query.to, timezone: zone.name, count: timespans.length, timespans };
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
