import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Collection, type Doc, type Store } from '@vigie/kernel';
import type { Action } from './schemas.js';

/** A pattern object; its grammar is the engine's (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/** An action as stored in `default_action`: the API's field names and value forms (`actionSchema`), read as is by the engine. */
export interface ActionRecord extends Doc, Action {}

@injectable()
export class ActionRepository {
  readonly #actions: Collection<ActionRecord>;
  /** Counts the writes of this process, so the engine knows when to read the actions again. */
  writes = 0;

  constructor(@inject(KernelTokens.Store) store: Store) {
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
