import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type BatchOperation, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';
import type { VigieEvent } from './pipeline.js';

/** An accepted event, as the intake hands it to the queue. */
export interface AcceptedEvent {
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

/** An accepted event waiting to be processed. */
export interface QueuedEvent extends AcceptedEvent, Doc {
  _id: string;
  /** The `event_queue` document holding the event. */
  batch: string;
}

/** An event the pipeline gave up on (a stage kept failing), kept with why. */
export interface FailedEvent extends QueuedEvent {
  error: string;
  stage: string;
  failed_at: number;
}

/**
 * The events of one acceptance (an HTTP request, an AMQP batch) as stored, in order: one document, one row to
 * write and one to delete for up to `eventsPerDocument` events. Its id is its first event's.
 */
export interface StoredBatch extends Doc {
  node: string;
  accepted_at: number;
  events: { _id: string; entity: string; event: VigieEvent }[];
}

/** Events of a stored batch processed while others of it still wait: one record per group settled (never rewritten). */
export interface BatchProgress extends Doc {
  node: string;
  batch: string;
  done: string[];
}

/** A queue document of an older version: one event. */
export interface StoredEvent extends Doc {
  node: string;
  entity: string;
  accepted_at: number;
  event: VigieEvent;
}

/** Events in one `event_queue` document at most (a MongoDB document is limited to 16 MiB). */
const eventsPerDocument = 1000;

export const queueCollection = collectionRef<StoredBatch | StoredEvent>('event_queue');
export const progressCollection = collectionRef<BatchProgress>('event_queue_progress');
export const failureCollection = collectionRef<FailedEvent>('event_failures');

/**
 * The durable event queue: an event is in `event_queue` from its acceptance until it has been processed. The
 * events of one acceptance share a document, deleted once all of them are processed; until then, those processed
 * are recorded in `event_queue_progress` (grouped, like the deletions), so that a restart runs again only what
 * had not been processed, give or take the last group.
 */
@injectable()
export class EventQueueRepository {
  readonly #store: FeatureStore;
  readonly #queue: Collection<StoredBatch | StoredEvent>;
  readonly #progress: Collection<BatchProgress>;
  readonly #failures: Collection<FailedEvent>;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#store = store;
    this.#queue = store.collection(queueCollection);
    this.#progress = store.collection(progressCollection);
    this.#failures = store.collection(failureCollection);
  }

  /**
   * One atomic, durable write for a whole batch of accepted events (in acceptance order, from one node); resolves
   * with them as the pipeline takes them, and the number of documents written.
   */
  async insert(events: readonly AcceptedEvent[]): Promise<{ queued: QueuedEvent[]; documents: number }> {
    const documents: StoredBatch[] = [];
    const queued: QueuedEvent[] = [];
    for (let start = 0; start < events.length; start += eventsPerDocument) {
      const chunk = events.slice(start, start + eventsPerDocument);
      const first = chunk[0] as AcceptedEvent;
      documents.push({
        _id: first._id,
        node: first.node,
        accepted_at: first.accepted_at,
        events: chunk.map(({ _id, entity, event }) => ({ _id, entity, event })),
      });
      // One literal of the final shape per event (no copy member by member, no member added after: see shallowCopy).
      for (const { _id, node, entity, accepted_at, event } of chunk) queued.push({ _id, node, entity, accepted_at, event, batch: first._id });
    }
    await this.#queue.insertMany(documents);
    return { queued, documents: documents.length };
  }

  /**
   * Records what the pipeline finished, atomically: `completed` batches leave the queue, and the events listed in
   * `progress` (by batch) are marked processed.
   */
  async settle(completed: readonly string[], progress: ReadonlyMap<string, { node: string; ids: readonly string[] }>): Promise<void> {
    const operations: BatchOperation[] = [];
    if (completed.length > 0) {
      operations.push({ op: 'delete', collection: queueCollection.name, filter: { _id: { $in: [...completed] } }, multi: true });
      operations.push({ op: 'delete', collection: progressCollection.name, filter: { batch: { $in: [...completed] } }, multi: true });
    }
    for (const [batch, { node, ids }] of progress) {
      // Named after its first event, finished once: unique.
      operations.push({ op: 'insert', collection: progressCollection.name, doc: { _id: ids[0] as string, node, batch, done: [...ids] } });
    }
    if (operations.length > 0) await this.#store.batch(operations);
  }

  /** Every event this node accepted and has not processed yet, in acceptance order. */
  async pending(node: string): Promise<QueuedEvent[]> {
    const done = new Set<string>();
    for (const progress of await this.#progress.find({ node })) for (const id of progress.done) done.add(id);
    const events: QueuedEvent[] = [];
    for (const doc of await this.#queue.find({ node }, { sort: { _id: 1 } })) {
      if ('events' in doc && Array.isArray(doc.events)) {
        for (const { _id, entity, event } of doc.events) {
          if (!done.has(_id)) events.push({ _id, node, entity, accepted_at: doc.accepted_at, event, batch: doc._id });
        }
      } else {
        const single = doc as StoredEvent;
        events.push({ _id: single._id, node, entity: single.entity, accepted_at: single.accepted_at, event: single.event, batch: single._id });
      }
    }
    return events;
  }

  /** The most recent event id of this node still queued (to keep new ids after it). */
  async lastId(node: string): Promise<string | undefined> {
    const newest = await this.#queue.findOne({ node }, { sort: { _id: -1 } });
    if (!newest) return undefined;
    return 'events' in newest && Array.isArray(newest.events) ? (newest.events.at(-1)?._id ?? newest._id) : newest._id;
  }

  /** Keeps an event the pipeline gave up on; the runner then counts it as finished. */
  async fail(event: QueuedEvent, stage: string, error: string, at: number): Promise<void> {
    await this.#failures.replaceOne({ _id: event._id }, { ...event, stage, error, failed_at: at }, { upsert: true });
  }
}
