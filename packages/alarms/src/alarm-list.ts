import { inject, injectable } from 'tsyringe';
import { injectRef, HttpError, type Filter } from '@vigie/kernel';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import type { InferType } from 'yup';
import type { Alarm } from './alarm.js';
import { AlarmRepository } from './alarm-repository.js';
import { AlarmSearch, mergeClauses } from './alarm-search.js';
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

/** The alarm list of `GET /alerts/get-alarms` and the item of `GET /api/v2/alarms/<id>`, with each alarm's entity. */
@injectable()
export class AlarmListService {
  readonly #alarms: AlarmRepository;
  readonly #entities: EntityRepository;
  readonly #search: AlarmSearch;

  constructor(
    @inject(AlarmRepository) alarms: AlarmRepository,
    @injectRef(entityRepositoryRef) entities: EntityRepository,
    @inject(AlarmSearch) search: AlarmSearch,
  ) {
    this.#alarms = alarms;
    this.#entities = entities;
    this.#search = search;
  }

  async list(query: AlarmListQuery): Promise<AlarmPage> {
    if (query.page !== undefined && query.skip !== undefined) throw new HttpError(400, 'Give skip or page, not both');
    const skip = query.page !== undefined ? (query.page - 1) * query.limit : (query.skip ?? 0);
    const filter = await this.#search.selectionFilter(query);
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
    const filter = await this.#search.selectionFilter(query);
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
