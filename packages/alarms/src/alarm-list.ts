import { inject, injectable } from 'tsyringe';
import { assertSafeFilter } from '@vigie/filter-safety';
import { injectRef, HttpError, type Filter } from '@vigie/kernel';
import { entityInfosSearchRef, entityRepositoryRef, type EntityInfosSearch, type EntityRepository } from '@vigie/context-graph';
import type { InferType } from 'yup';
import type { Alarm } from './alarm.js';
import { AlarmRepository } from './alarm-repository.js';
import { parseSortKeys, type alarmCountersQuerySchema, type alarmListQuerySchema } from './schemas.js';

export type AlarmListQuery = InferType<typeof alarmListQuerySchema>;

/** An alarm as the list and the item route show it. */
export interface AlarmOutput {
  _id: string;
  t: number;
  d: string;
  v: Record<string, unknown>;
  entity: Record<string, unknown> | null;
}

export interface AlarmPage {
  alarms: AlarmOutput[];
  total: number;
  first: number;
  last: number;
}

/** Fields `search` looks in (case-insensitive substring), besides the entity's infos. */
const searchedFields = ['d', 'v.display_name', 'v.output', 'v.connector', 'v.connector_name', 'v.component', 'v.resource'];

/** Entities whose infos match a search that are looked for among the alarms at most (a search that broad is no search). */
const maxSearchedEntities = 10_000;

export type AlarmCountersQuery = InferType<typeof alarmCountersQuerySchema>;

export interface AlarmCounters {
  total: number;
  by_state: { '0': number; '1': number; '2': number; '3': number };
  acknowledged: number;
  unacknowledged: number;
  snoozed: number;
  under_pbehavior: number;
}

/**
 * The list's sort: the `sort` keys (`field:ASC|DESC` pairs) when given, else up to three `sort_key` fields with their
 * `sort_dir` directions (one direction for all, or one each); then `_id` in the first key's direction, so that pages
 * are stable when the keys tie.
 */
function sortOf(query: Pick<AlarmListQuery, 'sort' | 'sort_key' | 'sort_dir'>): Record<string, 1 | -1> {
  const sort: Record<string, 1 | -1> = {};
  const keys = query.sort === undefined ? null : parseSortKeys(query.sort);
  if (keys) for (const key of keys) sort[key.field] = key.direction;
  else {
    const dirs = query.sort_dir.split(',');
    for (const [i, key] of query.sort_key.split(',').entries()) sort[key] = (dirs[i] ?? dirs[0]) === 'ASC' ? 1 : -1;
  }
  if (!('_id' in sort)) sort._id = Object.values(sort)[0] ?? -1;
  return sort;
}

/** One filter of all clauses: merged into one object when no two share a field, else `$and`. */
function mergeClauses(clauses: readonly Filter[]): Filter {
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

function parseFilter(text: string | undefined): Filter | null {
  if (text === undefined || text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `Invalid filter: not valid JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, 'Invalid filter: it must be a JSON object');
  return assertSafeFilter(parsed as Filter);
}

/** The selection parameters of the list, which the live stream and the export take too. */
export type AlarmSelection = Pick<AlarmListQuery, 'opened' | 'resolved' | 'tstart' | 'tstop' | 'filter' | 'search'>;

/**
 * The store filter of the list's selection (its `filter` checked by `assertSafeFilter`), or null when it selects
 * nothing (neither open nor resolved alarms).
 */
export function alarmListFilter(query: AlarmSelection, infoEntities: readonly string[] = []): Filter | null {
  const clauses: Filter[] = [];
  if (query.opened && !query.resolved) clauses.push({ 'v.resolved': null });
  else if (!query.opened && query.resolved) clauses.push({ 'v.resolved': { $ne: null } });
  else if (!query.opened && !query.resolved) return null;
  // The window: created by tstop, and open or resolved at or after tstart.
  if (query.tstop !== undefined) clauses.push({ t: { $lte: query.tstop } });
  if (query.tstart !== undefined) clauses.push({ $or: [{ 'v.resolved': null }, { 'v.resolved': { $gte: query.tstart } }] });
  const userFilter = parseFilter(query.filter);
  if (userFilter) clauses.push(userFilter);
  if (query.search !== undefined && query.search.trim() !== '') {
    const pattern = escapeRegex(query.search.trim());
    const byFields: Filter[] = searchedFields.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } }));
    clauses.push({ $or: infoEntities.length > 0 ? [...byFields, { d: { $in: [...infoEntities] } }] : byFields });
  }
  return mergeClauses(clauses);
}

/** The alarm list of `GET /alerts/get-alarms` and the item of `GET /api/v2/alarms/<id>`, with each alarm's entity. */
@injectable()
export class AlarmListService {
  readonly #alarms: AlarmRepository;
  readonly #entities: EntityRepository;
  readonly #infosSearch: EntityInfosSearch;

  constructor(
    @inject(AlarmRepository) alarms: AlarmRepository,
    @injectRef(entityRepositoryRef) entities: EntityRepository,
    @injectRef(entityInfosSearchRef) infosSearch: EntityInfosSearch,
  ) {
    this.#alarms = alarms;
    this.#entities = entities;
    this.#infosSearch = infosSearch;
  }

  async list(query: AlarmListQuery): Promise<AlarmPage> {
    if (query.page !== undefined && query.skip !== undefined) throw new HttpError(400, 'Give skip or page, not both');
    const skip = query.page !== undefined ? (query.page - 1) * query.limit : (query.skip ?? 0);
    const filter = await this.#filter(query);
    if (filter === null) return { alarms: [], total: 0, first: skip + 1, last: skip };
    const total = await this.#alarms.count(filter);
    const page = await this.#alarms.find(filter, {
      sort: sortOf(query),
      skip,
      limit: query.limit,
      ...(query.with_steps ? {} : { projection: { 'v.steps': 0 } }),
    });
    const alarms = await this.#withEntities(page);
    return { alarms, total, first: skip + 1, last: skip + alarms.length };
  }

  /** `GET /api/v2/alarm-counters`: the alarms the list's filter selects, counted per state and per operation. */
  async counters(query: AlarmCountersQuery): Promise<AlarmCounters> {
    const filter = await this.#filter(query);
    if (filter === null) return { total: 0, by_state: { '0': 0, '1': 0, '2': 0, '3': 0 }, acknowledged: 0, unacknowledged: 0, snoozed: 0, under_pbehavior: 0 };
    // Counts the store answers without handing out documents (from its indexes where it has them: state, open), rather
    // than one pass over copies of every matching alarm.
    const count = (clause: Filter) => this.#alarms.count(mergeClauses([filter, clause]));
    const [total, s0, s1, s2, s3, unacknowledged, unsnoozed, outsidePbehavior] = await Promise.all([
      this.#alarms.count(filter),
      // An alarm without a state counts as 0 (ok), as it shows.
      count({ 'v.state.val': { $in: [0, null] } }),
      count({ 'v.state.val': 1 }),
      count({ 'v.state.val': 2 }),
      count({ 'v.state.val': 3 }),
      count({ 'v.ack': null }),
      count({ 'v.snooze': null }),
      count({ 'v.pbehavior_info': null }),
    ]);
    return {
      total,
      by_state: { '0': s0, '1': s1, '2': s2, '3': s3 },
      acknowledged: total - unacknowledged,
      unacknowledged,
      snoozed: total - unsnoozed,
      under_pbehavior: total - outsidePbehavior,
    };
  }

  /**
   * The store filter of the list's query, or null when it selects nothing. The clauses are merged into one object
   * where their fields differ (`{v.resolved: null, v.state.val: 3}` rather than `$and`), which the embedded store
   * answers from its index on `v.resolved` and its direct equality test instead of the general query engine.
   */
  async #filter(query: AlarmCountersQuery): Promise<Filter | null> {
    const search = query.search?.trim() ?? '';
    return alarmListFilter(query, search === '' ? [] : await this.#infosSearch.matching(search.toLowerCase(), maxSearchedEntities));
  }

  async get(id: string): Promise<AlarmOutput | null> {
    const alarm = await this.#alarms.get(id);
    if (!alarm) return null;
    return (await this.#withEntities([alarm]))[0] ?? null;
  }

  /** A stored alarm as the routes show it, with its entity. */
  async show(alarm: Alarm): Promise<AlarmOutput> {
    return (await this.#withEntities([alarm]))[0]!;
  }

  async #withEntities(alarms: readonly Alarm[]): Promise<AlarmOutput[]> {
    const entities = await this.#entities.getMany(new Set(alarms.map((alarm) => alarm.d)));
    return alarms.map((alarm) => ({
      _id: alarm._id,
      t: alarm.t,
      d: alarm.d,
      v: alarm.v,
      entity: (entities.get(alarm.d) as Record<string, unknown> | undefined) ?? null,
    }));
  }
}
