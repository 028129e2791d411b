import { inject, injectable } from 'tsyringe';
import type { Filter, Projection } from '@vigie/kernel';
import type { Alarm } from './alarm.js';
import { AlarmRepository } from './alarm-repository.js';

/** Read access to alarms for other features (exported as `alarmReader`); every write goes through `alarmChanges`. */
@injectable()
export class AlarmReader {
  readonly #repository: AlarmRepository;

  constructor(@inject(AlarmRepository) repository: AlarmRepository) {
    this.#repository = repository;
  }

  /** The open alarm of each of `entityIds` that has one. `fields` projects (e.g. to leave the steps out). */
  async openAlarms(entityIds: readonly string[], fields?: Projection): Promise<Map<string, Alarm>> {
    const byEntity = new Map<string, Alarm>();
    if (entityIds.length === 0) return byEntity;
    const alarms = await this.#repository.find({ d: { $in: [...entityIds] }, 'v.resolved': null }, fields ? { projection: fields } : {});
    for (const alarm of alarms) {
      const known = byEntity.get(alarm.d);
      // One open alarm per entity is the rule; should old data hold several, the newest wins.
      if (!known || alarm.t > known.t) byEntity.set(alarm.d, alarm);
    }
    return byEntity;
  }

  /** The entity's open alarm, or null. */
  openAlarm(entityId: string): Promise<Alarm | null> {
    return this.#repository.open(entityId);
  }

  /** An alarm by id, open or resolved. */
  get(id: string): Promise<Alarm | null> {
    return this.#repository.get(id);
  }

  /** Alarms matching a store filter (callers check user-supplied filters with `assertSafeFilter`). */
  find(filter: Filter, options: { sort?: Record<string, 1 | -1>; skip?: number; limit?: number; fields?: Projection } = {}): Promise<Alarm[]> {
    const { fields, ...rest } = options;
    return this.#repository.find(filter, fields ? { ...rest, projection: fields } : rest);
  }

  /** How many alarms match a store filter. */
  count(filter: Filter): Promise<number> {
    return this.#repository.count(filter);
  }
}
