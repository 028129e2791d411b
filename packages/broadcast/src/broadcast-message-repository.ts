import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Store } from '@vigie/kernel';

/** A message as stored in `broadcast_message`. */
export interface BroadcastMessageRecord extends Doc {
  /** uuid4. */
  _id: string;
  message: string;
  /** `#rgb` or `#rrggbb`. */
  color: string;
  /** Display window, epoch seconds, both ends inclusive. */
  start: number;
  end: number;
}

@injectable()
export class BroadcastMessageRepository {
  readonly #messages: Collection<BroadcastMessageRecord>;

  constructor(@injectRef(kernelRefs.store) store: Store) {
    this.#messages = store.collection<BroadcastMessageRecord>('broadcast_message');
  }

  list(): Promise<BroadcastMessageRecord[]> {
    return this.#messages.find({}, { sort: { start: 1, _id: 1 } });
  }

  /** Messages whose window contains `at` (epoch seconds). */
  shownAt(at: number): Promise<BroadcastMessageRecord[]> {
    return this.#messages.find({ start: { $lte: at }, end: { $gte: at } }, { sort: { start: 1, _id: 1 } });
  }

  get(id: string): Promise<BroadcastMessageRecord | null> {
    return this.#messages.findOne({ _id: id });
  }

  insert(record: BroadcastMessageRecord): Promise<void> {
    return this.#messages.insertOne(record);
  }

  /** Full replacement; nothing happens when `record._id` does not exist. */
  async replace(record: BroadcastMessageRecord): Promise<void> {
    await this.#messages.replaceOne({ _id: record._id }, record);
  }

  async delete(id: string): Promise<void> {
    await this.#messages.deleteOne({ _id: id });
  }
}
