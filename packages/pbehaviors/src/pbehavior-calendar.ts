import { inject, injectable } from 'tsyringe';
import { HttpError, injectRef, kernelRefs, type Clock, type Filter } from '@vigie/kernel';
import { entityReaderRef, type EntityReader } from '@vigie/context-graph';
import type { PbehaviorsConfig } from './config.js';
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

/** An instant as ISO 8601 in a zone, with its offset, made from the zone's cached offset. */
function localIso(zone: TimeZone, epochSec: number): string {
  const offset = zone.offsetAt(epochSec);
  const wall = new Date((epochSec + offset) * 1000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / 60;
  return `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

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
    @injectRef(kernelRefs.config) private readonly config: PbehaviorsConfig,
  ) {}

  async timespans(query: CalendarQuery): Promise<Calendar> {
    const zoneName = query.timezone ?? this.config.default_timezone;
    if (!TimeZone.isValid(zoneName)) throw new HttpError(400, `timezone ${zoneName} is not an IANA time zone such as Europe/Paris or UTC`);
    const zone = TimeZone.named(zoneName);
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
          start_local: localIso(zone, window.start),
          end_local: localIso(zone, window.end),
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
