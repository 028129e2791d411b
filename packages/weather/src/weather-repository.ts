import { injectable } from 'tsyringe';
import { injectRef, type Doc, type Filter, type FindOptions } from '@vigie/kernel';
import { alarmReaderRef, type AlarmReader } from '@vigie/alarms';
import { entityReaderRef, type EntityReader } from '@vigie/context-graph';

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

/** An alarm (REFERENCE §6.1), with the fields the weather shows; read through the alarms feature's reader. */
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

/** Reads of the context graph (through `entityReaderRef`) and of the live open alarms (through `alarmReaderRef`). */
@injectable()
export class WeatherRepository {
  readonly #entities: EntityReader;
  readonly #alarms: AlarmReader;

  constructor(@injectRef(entityReaderRef) entities: EntityReader, @injectRef(alarmReaderRef) alarms: AlarmReader) {
    this.#entities = entities;
    this.#alarms = alarms;
  }

  entities(filter: Filter, options: Omit<FindOptions, 'projection'> = {}): Promise<EntityDoc[]> {
    // Without a projection: the embedded store projects several times slower than it copies small documents.
    return this.#entities.find<EntityDoc>(filter, options);
  }

  /** The entities among `ids` that exist (and pass `extra`). */
  entitiesById(ids: readonly string[], extra: Filter = {}): Promise<EntityDoc[]> {
    return this.entities({ _id: { $in: [...ids] }, ...extra });
  }

  /** Ids of the entities a filter selects. */
  async entityIds(filter: Filter): Promise<string[]> {
    return this.#entities.ids(filter);
  }

  watcher(id: string): Promise<EntityDoc | null> {
    return this.#entities.findOne<EntityDoc>({ _id: id, type: 'watcher' });
  }

  /** The open (not resolved) alarm of each entity that has one. */
  openAlarms(entityIds: readonly string[]): Promise<Map<string, AlarmDoc>> {
    return this.#alarms.openAlarms(entityIds, alarmFields);
  }

  /** What the watcher engine reads of open alarms: their state, acknowledgement and output. */
  openAlarmStates(entityIds: readonly string[]): Promise<Map<string, AlarmDoc>> {
    return this.#alarms.openAlarms(entityIds, { d: 1, t: 1, 'v.state': 1, 'v.ack': 1, 'v.output': 1 });
  }
}
