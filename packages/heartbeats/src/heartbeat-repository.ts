import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Collection, type Doc, type Store } from '@vigie/kernel';
import type { Heartbeat } from './schemas.js';

/**
 * A heartbeat as stored in `heartbeat`, in the shape the heartbeat engine reads (REFERENCE §5.5): the API's fields
 * (`heartbeatSchema`; `_id` is `heartbeatId(pattern)`) and the output of the alarm it raises, absent when not given.
 */
export interface HeartbeatRecord extends Doc, Heartbeat {
  output?: string;
}

const collectionName = 'heartbeat';

@injectable()
export class HeartbeatRepository {
  readonly #heartbeats: Collection<HeartbeatRecord>;
  /** Counts the writes of this process, so the engine reads the heartbeats again at once. */
  writes = 0;

  constructor(@inject(KernelTokens.Store) private readonly store: Store) {
    this.#heartbeats = store.collection<HeartbeatRecord>(collectionName);
  }

  list(): Promise<HeartbeatRecord[]> {
    return this.#heartbeats.find({}, { sort: { _id: 1 } });
  }

  get(id: string): Promise<HeartbeatRecord | null> {
    return this.#heartbeats.findOne({ _id: id });
  }

  /** Throws a `DUPLICATE_KEY` error when a heartbeat with the same id (the same pattern) exists. */
  async insert(record: HeartbeatRecord): Promise<void> {
    await this.#heartbeats.insertOne(record);
    this.writes++;
  }

  /**
   * Replaces heartbeat `id` with `record`; false when `id` does not exist. A changed pattern changes the id: the
   * old document is then deleted and the new one inserted in one batch, which fails whole with `DUPLICATE_KEY` if
   * another heartbeat already has that pattern.
   */
  async replace(id: string, record: HeartbeatRecord): Promise<boolean> {
    const replaced = await this.#replace(id, record);
    this.writes++;
    return replaced;
  }

  async #replace(id: string, record: HeartbeatRecord): Promise<boolean> {
    if (record._id === id) return (await this.#heartbeats.replaceOne({ _id: id }, record)).matchedCount === 1;
    if (!(await this.get(id))) return false;
    await this.store.batch([
      { op: 'delete', collection: collectionName, filter: { _id: id } },
      { op: 'insert', collection: collectionName, doc: record },
    ]);
    return true;
  }

  async delete(id: string): Promise<boolean> {
    const deleted = (await this.#heartbeats.deleteOne({ _id: id })).deletedCount === 1;
    this.writes++;
    return deleted;
  }
}
