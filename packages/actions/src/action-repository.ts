import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Store } from '@vigie/kernel';

/** A pattern object; its grammar is the engine's (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/** When an action fires: one of `triggers`, and every pattern list given (each an OR of patterns). */
export interface ActionHook {
  triggers: string[];
  event_patterns?: Pattern[] | null;
  alarm_patterns?: Pattern[] | null;
  entity_patterns?: Pattern[] | null;
}

/** The fields of an action, the same in the store and in the list route. Optional fields are absent rather than null. */
export interface ActionFields {
  _id: string;
  /** `pbehavior`, `snooze`, `ack`, … */
  type: string;
  hook?: ActionHook;
  parameters?: Record<string, unknown>;
  /** `<number><unit>`, e.g. `1m`. */
  delay?: string;
  priority?: number;
  /** Legacy (non-hook) actions: alarm `v` fields matched against `regex`. */
  fields?: string[];
  regex?: string;
  creation_date: number;
  last_update_date: number;
}

/** An action as stored in `default_action`: the API's field names and value forms, read as is by the engine. */
export interface ActionRecord extends Doc, ActionFields {}

@injectable()
export class ActionRepository {
  readonly #actions: Collection<ActionRecord>;
  /** Counts the writes of this process, so the engine knows when to read the actions again. */
  writes = 0;

  constructor(@injectRef(kernelRefs.store) store: Store) {
    this.#actions = store.collection<ActionRecord>('default_action');
  }

  get(id: string): Promise<ActionRecord | null> {
    return this.#actions.findOne({ _id: id });
  }

  list(): Promise<ActionRecord[]> {
    return this.#actions.find({}, { sort: { _id: 1 } });
  }

  /** Throws the store's `DUPLICATE_KEY` error when the id exists. */
  async insert(action: ActionRecord): Promise<void> {
    await this.#actions.insertOne(action);
    this.writes++;
  }

  /** Whole-document replacement; false when no action has this id. */
  async replace(action: ActionRecord): Promise<boolean> {
    const matched = (await this.#actions.replaceOne({ _id: action._id }, action)).matchedCount === 1;
    this.writes++;
    return matched;
  }

  async delete(id: string): Promise<boolean> {
    const deleted = (await this.#actions.deleteOne({ _id: id })).deletedCount === 1;
    this.writes++;
    return deleted;
  }
}
