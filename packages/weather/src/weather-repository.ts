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

const entityProjection = { _id: 1, name: 1, type: 1, enabled: 1, infos: 1, depends: 1, entities: 1, mfilter: 1 } as const;

/** Alarm fields the weather shows: the step history and outputs, which can be large, are never read. */
const alarmProjection = {
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
    return this.#entities.find(filter, { ...options, projection: entityProjection });
  }

  watcher(id: string): Promise<EntityDoc | null> {
    return this.#entities.findOne({ _id: id, type: 'watcher' }, { projection: entityProjection });
  }

  /** The open (not resolved) alarm of each entity that has one; the latest when the data holds several. */
  async openAlarms(entityIds: readonly string[]): Promise<Map<string, AlarmDoc>> {
    const byEntity = new Map<string, AlarmDoc>();
    if (entityIds.length === 0) return byEntity;
    const alarms = await this.#alarms.find({ d: { $in: [...entityIds] }, 'v.resolved': null }, { projection: alarmProjection });
    for (const alarm of alarms) {
      const known = byEntity.get(alarm.d);
      if (!known || Number(alarm.t) > Number(known.t)) byEntity.set(alarm.d, alarm);
    }
    return byEntity;
  }
}
