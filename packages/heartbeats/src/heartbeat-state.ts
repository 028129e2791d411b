import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';

/** What the engine persists of each heartbeat (collection `heartbeat_state`): a restart forgets nothing. */
export const heartbeatStateCollection = collectionRef<HeartbeatState>('heartbeat_state');

export interface HeartbeatState extends Doc {
  /** The heartbeat id. */
  _id: string;
  /** Epoch seconds of the last matching event (or of when the engine first saw the heartbeat). */
  last_match: number;
  /** Whether the engine raised the heartbeat's alarm and no matching event came since. */
  alarm: boolean;
  /** The resource of the heartbeat's alarm, kept so the alarm of a deleted heartbeat can still be closed. */
  resource?: string;
}

@injectable()
export class HeartbeatStateRepository {
  readonly #states: Collection<HeartbeatState>;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#states = store.collection(heartbeatStateCollection);
  }

  all(): Promise<HeartbeatState[]> {
    return this.#states.find({});
  }

  /** A heartbeat seen for the first time: its first interval starts now. */
  async start(id: string, nowSec: number, resource: string): Promise<void> {
    await this.#states.updateOne({ _id: id }, { $setOnInsert: { last_match: nowSec, alarm: false, resource } }, { upsert: true });
  }

  /** A matching event; resolves with whether the heartbeat's alarm was raised (an OK is then due). */
  async matched(id: string, nowSec: number): Promise<boolean> {
    // `$max`: events of different entities are processed concurrently, so matches may arrive slightly out of order.
    const before = await this.#states.findOneAndUpdate({ _id: id }, { $max: { last_match: nowSec }, $set: { alarm: false } }, { upsert: true, returnDocument: 'before' });
    return before?.alarm === true;
  }

  /** Marks the alarm raised unless a matching event came since `lastMatch`; true when this call raised it. */
  async raise(id: string, lastMatch: number, resource: string): Promise<boolean> {
    return (await this.#states.updateOne({ _id: id, last_match: lastMatch, alarm: false }, { $set: { alarm: true, resource } })).modifiedCount === 1;
  }

  async forget(id: string): Promise<void> {
    await this.#states.deleteOne({ _id: id });
  }
}
