import { inject, injectable } from 'tsyringe';
import { assertSafeFilter } from '@vigie/filter-safety';
import { injectRef, HttpError, type Filter } from '@vigie/kernel';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import type { InferType } from 'yup';
import type { Alarm } from './alarm.js';
import { AlarmRepository } from './alarm-repository.js';
import type { alarmListQuerySchema } from './schemas.js';

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

/** Fields `search` looks in (case-insensitive substring). */
const searchedFields = ['d', 'v.display_name', 'v.output', 'v.connector', 'v.connector_name', 'v.component', 'v.resource'];

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

/** The alarm list of `GET /alerts/get-alarms` and the item of `GET /api/v2/alarms/<id>`, with each alarm's entity. */
@injectable()
export class AlarmListService {
  readonly #alarms: AlarmRepository;
  readonly #entities: EntityRepository;

  constructor(@inject(AlarmRepository) alarms: AlarmRepository, @injectRef(entityRepositoryRef) entities: EntityRepository) {
    this.#alarms = alarms;
    this.#entities = entities;
  }

  async list(query: AlarmListQuery): Promise<AlarmPage> {
    const clauses: Filter[] = [];
    if (query.opened && !query.resolved) clauses.push({ 'v.resolved': null });
    else if (!query.opened && query.resolved) clauses.push({ 'v.resolved': { $ne: null } });
    else if (!query.opened && !query.resolved) return { alarms: [], total: 0, first: query.skip + 1, last: query.skip };
    // The window: created by tstop, and open or resolved at or after tstart.
    if (query.tstop !== undefined) clauses.push({ t: { $lte: query.tstop } });
    if (query.tstart !== undefined) clauses.push({ $or: [{ 'v.resolved': null }, { 'v.resolved': { $gte: query.tstart } }] });
    const userFilter = parseFilter(query.filter);
    if (userFilter) clauses.push(userFilter);
    if (query.search !== undefined && query.search.trim() !== '') {
      const pattern = escapeRegex(query.search.trim());
      clauses.push({ $or: searchedFields.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } })) });
    }
    const filter: Filter = clauses.length === 0 ? {} : clauses.length === 1 ? clauses[0]! : { $and: clauses };
    const direction = query.sort_dir === 'ASC' ? 1 : -1;
    const total = await this.#alarms.count(filter);
    const page = await this.#alarms.find(filter, {
      sort: query.sort_key === '_id' ? { _id: direction } : { [query.sort_key]: direction, _id: direction },
      skip: query.skip,
      limit: query.limit,
      ...(query.with_steps ? {} : { projection: { 'v.steps': 0 } }),
    });
    const alarms = await this.#withEntities(page);
    return { alarms, total, first: query.skip + 1, last: query.skip + alarms.length };
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
