import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Collection, type Doc, type Store } from '@vigie/kernel';
import type { VigieEvent } from './pipeline.js';

/** An accepted event waiting in `event_queue` until the pipeline has processed it. */
export interface QueuedEvent extends Doc {
  /** The event id: increasing in acceptance order on one node. */
  _id: string;
  /** The node that accepted the event and processes it. */
  node: string;
  /** The entity id at acceptance: the key that orders the event among those of its entity. */
  entity: string;
  /** Epoch ms of acceptance. */
  accepted_at: number;
  event: VigieEvent;
}

/** An event the pipeline gave up on (a stage kept failing), kept with why. */
export interface FailedEvent extends QueuedEvent {
  error: string;
  stage: string;
  failed_at: number;
}

/** The durable event queue: an event is in `event_queue` from its acceptance until it has been processed. */
@injectable()
export class EventQueueRepository {
  readonly #queue: Collection<QueuedEvent>;
  readonly #failures: Collection<FailedEvent>;

  constructor(@inject(KernelTokens.Store) store: Store) {
    this.#queue = store.collection<QueuedEvent>('event_queue');
    this.#failures = store.collection<FailedEvent>('event_failures');
  }

  async ensureIndexes(): Promise<void> {
    await this.#queue.createIndex({ keys: { node: 1 } });
  }

  /** One atomic, durable write for a whole batch of accepted events. */
  insert(events: readonly QueuedEvent[]): Promise<void> {
    return this.#queue.insertMany(events);
  }

  async remove(ids: readonly string[]): Promise<void> {
    await this.#queue.deleteMany({ _id: { $in: ids } });
  }

  /** Every event this node accepted and has not processed yet, in acceptance order. */
  pending(node: string): Promise<QueuedEvent[]> {
    return this.#queue.find({ node }, { sort: { _id: 1 } });
  }

  /** The most recent event id of this node still queued (to keep new ids after it). */
  async lastId(node: string): Promise<string | undefined> {
    return (await this.#queue.findOne({ node }, { sort: { _id: -1 } }))?._id;
  }

  async fail(event: QueuedEvent, stage: string, error: string, at: number): Promise<void> {
    await this.#failures.replaceOne({ _id: event._id }, { ...event, stage, error, failed_at: at }, { upsert: true });
    await this.remove([event._id]);
  }
}
