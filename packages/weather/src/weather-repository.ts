import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Collection, type Doc, type Filter, type FindOptions, type Store } from '@vigie/kernel';

/** An entity of the context graph (REFERENCE §6.2), as the weather reads it; stored data is not trusted to be well formed. */
export interface EntityDoc extends Doc {
  name?: unknown;
  type?: unknown;
  enabled?: unknown;
  infos?: unknown;
  depends?: unknown;
  /** Go watchers: the patterns that chose `depends`. */
  entities?: unknown;
  /** Legacy watchers: the filter of their dependencies, as JSON text. */
  mfilter?: unknown;
}

/** An alarm of `periodical_alarm` (REFERENCE §6.1), with the fields the weather shows. */
export interface AlarmDoc extends Doc {
  /** The entity id. */
  d: string;
  t?: unknown;
  v?: Record<string, unknown>;
}

/** Alarm fields the weather shows: the step history and outputs, which can be large, are never read. */
const alarmFields = {
  d: 1,
  t: 1,
  'v.state': 1,
  'v.status': 1,
  'v.snooze': 1,
  'v.ack': 1,
  'v.ticket': 1,
  'v.connector': 1,
  'v.connector_name': 1,
  'v.component': 1,
  'v.resource': 1,
  'v.last_update_date': 1,
  'v.creation_date': 1,
  'v.display_name': 1,
  'v.alarmfilter.next_run': 1,
} as const;

/**
 * Ids per `_id: {$in}` query. The embedded store finds pinned documents directly but then tests each one against the
 * whole list (mingo builds a hash of the `$in` list for every document tested): short lists keep that linear.
 */
const idsPerQuery = 64;

/**
 * Entity ids up to which open alarms are looked up with `d: {$in}`. That test costs the embedded store time in
 * proportion to the list for every open alarm; past a few dozen ids, one pass over the open alarms reading only `d`,
 * then a lookup of the chosen ones by `_id`, is several times cheaper and does not grow with the list.
 */
const idsPerAlarmQuery = 32;

/** Reads of the context graph and of the open alarms (collections owned by other features, read through the store port). */
@injectable()
export class WeatherRepository {
  readonly #entities: Collection<EntityDoc>;
  readonly #alarms: Collection<AlarmDoc>;

  constructor(@inject(KernelTokens.Store) store: Store) {
    this.#entities = store.collection<EntityDoc>('default_entities');
    this.#alarms = store.collection<AlarmDoc>('periodical_alarm');
  }

  entities(filter: Filter, options: Omit<FindOptions, 'projection'> = {}): Promise<EntityDoc[]> {
    // Without a projection: the embedded store projects several times slower than it copies small documents.
    return this.#entities.find(filter, options);
  }

  /** The entities among `ids` that exist (and pass `extra`). */
  async entitiesById(ids: readonly string[], extra: Filter = {}): Promise<EntityDoc[]> {
    const chunks: Promise<EntityDoc[]>[] = [];
    for (let i = 0; i < ids.length; i += idsPerQuery) chunks.push(this.entities({ _id: { $in: ids.slice(i, i + idsPerQuery) }, ...extra }));
    return (await Promise.all(chunks)).flat();
  }

  watcher(id: string): Promise<EntityDoc | null> {
    return this.#entities.findOne({ _id: id, type: 'watcher' });
  }

  /** The open (not resolved) alarm of each entity that has one; the latest when the data holds several. */
  async openAlarms(entityIds: readonly string[]): Promise<Map<string, AlarmDoc>> {
    if (entityIds.length === 0) return new Map();
    if (entityIds.length <= idsPerAlarmQuery) {
      // The cheap test first: resolved alarms never reach the `$in` list.
      return latestByEntity(await this.#alarms.find({ 'v.resolved': null, d: { $in: [...entityIds] } }, { projection: alarmFields }));
    }
    const wanted = new Set(entityIds);
    // Projection costs the embedded store per field: `d` alone (and `_id`) here, the rest for the chosen few.
    const open = await this.#alarms.find({ 'v.resolved': null }, { projection: { d: 1 } });
    const chosen = open.filter((alarm) => wanted.has(alarm.d)).map((alarm) => alarm._id);
    const alarms: Promise<AlarmDoc[]>[] = [];
    for (let i = 0; i < chosen.length; i += idsPerQuery) alarms.push(this.#alarms.find({ _id: { $in: chosen.slice(i, i + idsPerQuery) }, 'v.resolved': null }, { projection: alarmFields }));
    return latestByEntity((await Promise.all(alarms)).flat());
  }
}

function latestByEntity(alarms: readonly AlarmDoc[]): Map<string, AlarmDoc> {
  const byEntity = new Map<string, AlarmDoc>();
  for (const alarm of alarms) {
    const known = byEntity.get(alarm.d);
    if (!known || Number(alarm.t) > Number(known.t)) byEntity.set(alarm.d, alarm);
  }
  return byEntity;
}
