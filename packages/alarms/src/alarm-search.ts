import { injectable } from 'tsyringe';
import { parseSafeFilter } from '@vigie/filter-safety';
import { injectRef, type Filter } from '@vigie/kernel';
import { entityInfosSearchRef, type EntityInfosSearch } from '@vigie/context-graph';
import type { InferType } from 'yup';
import type { alarmListQuerySchema } from './schemas.js';

/** Fields `search` looks in (case-insensitive substring), besides the entity's infos: the entity id and fields of `v`. */
export const searchedFields = ['d', 'v.display_name', 'v.output', 'v.connector', 'v.connector_name', 'v.component', 'v.resource'] as const;

/** One filter of all clauses: merged into one object when no two share a field, else `$and`. */
export function mergeClauses(clauses: readonly Filter[]): Filter {
  if (clauses.length === 0) return {};
  if (clauses.length === 1) return clauses[0]!;
  const merged: Filter = {};
  for (const clause of clauses) {
    for (const [key, condition] of Object.entries(clause)) {
      if (key in merged) return { $and: [...clauses] };
      merged[key] = condition;
    }
  }
  return merged;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The selection parameters of the list, which the live stream and the export take too. */
export type AlarmSelection = Pick<InferType<typeof alarmListQuerySchema>, 'opened' | 'resolved' | 'tstart' | 'tstop' | 'filter' | 'search'>;

/**
 * The store filter of the list's selection (its `filter` checked by `assertSafeFilter`), or null when it selects
 * nothing (neither open nor resolved alarms); `infoEntities`, the entities whose infos hold the search. The clauses
 * are merged into one object where their fields differ (`{v.resolved: null, v.state.val: 3}` rather than `$and`),
 * which the embedded store answers from its index on `v.resolved` and its direct equality test.
 */
export function alarmListFilter(query: AlarmSelection, infoEntities: readonly string[] = []): Filter | null {
  const clauses: Filter[] = [];
  if (query.opened && !query.resolved) clauses.push({ 'v.resolved': null });
  else if (!query.opened && query.resolved) clauses.push({ 'v.resolved': { $ne: null } });
  else if (!query.opened && !query.resolved) return null;
  // The window: created by tstop, and open or resolved at or after tstart.
  if (query.tstop !== undefined) clauses.push({ t: { $lte: query.tstop } });
  if (query.tstart !== undefined) clauses.push({ $or: [{ 'v.resolved': null }, { 'v.resolved': { $gte: query.tstart } }] });
  const userFilter = parseSafeFilter(query.filter);
  if (userFilter) clauses.push(userFilter);
  if (query.search !== undefined && query.search.trim() !== '') {
    const pattern = escapeRegex(query.search.trim());
    const byFields: Filter[] = searchedFields.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } }));
    clauses.push({ $or: infoEntities.length > 0 ? [...byFields, { d: { $in: [...infoEntities] } }] : byFields });
  }
  return mergeClauses(clauses);
}

/** Entities whose infos match a search that are looked for among the alarms at most (a search that broad is no search). */
const maxSearchedEntities = 10_000;

/** The fields of a notice's alarm a live search reads. */
export interface SearchedAlarm {
  d: string;
  v: Record<string, unknown>;
}

/** A live stream's search, tested on each changed alarm; `stop` when the stream ends. */
export interface LiveAlarmSearch {
  test(alarm: SearchedAlarm): boolean;
  stop(): void;
}

const fieldReaders = searchedFields.map((field) => {
  const [outer, inner] = field.split('.') as [string, string | undefined];
  return (alarm: SearchedAlarm): unknown => (inner === undefined ? (alarm as unknown as Record<string, unknown>)[outer] : alarm.v[inner]);
});

/**
 * What the list's `search` means, for every reader of alarms: a case-insensitive substring of the alarm's searched
 * fields (`searchedFields`) or of its entity's infos (names and values). The list, the counters and the export ask
 * the store with the entities whose infos hold the text; a live stream tests each changed alarm as it comes.
 */
@injectable()
export class AlarmSearch {
  constructor(@injectRef(entityInfosSearchRef) private readonly infos: EntityInfosSearch) {}

  /** The store filter of a selection, its search included, or null when it selects nothing (see `alarmListFilter`). */
  async selectionFilter(selection: AlarmSelection): Promise<Filter | null> {
    const search = selection.search?.trim() ?? '';
    return alarmListFilter(selection, search === '' ? [] : await this.infos.matching(search.toLowerCase(), maxSearchedEntities));
  }

  /** The test of a live stream's search, with the entities' infos kept current while it is used. */
  async live(search: string | undefined): Promise<LiveAlarmSearch> {
    const text = search?.trim() ?? '';
    if (text === '') return { test: () => true, stop: () => undefined };
    const pattern = new RegExp(escapeRegex(text), 'i');
    const needle = text.toLowerCase();
    // Followed before the read: a change announced meanwhile is read for the stream too.
    const stop = this.infos.follow();
    try {
      await this.infos.current();
    } catch (err) {
      stop();
      throw err;
    }
    return {
      test: (alarm) => {
        for (const read of fieldReaders) {
          const value = read(alarm);
          if (typeof value === 'string' && pattern.test(value)) return true;
        }
        return this.infos.holdsNow(alarm.d, needle);
      },
      stop,
    };
  }
}
