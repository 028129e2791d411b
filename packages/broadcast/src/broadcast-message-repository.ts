import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Doc, type FeatureStore } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';
import type { BroadcastMessage } from './schemas.js';

/** A message as stored in `broadcast_message`: the message as the API shows it. */
export interface BroadcastMessageRecord extends Doc, BroadcastMessage {}

export const broadcastMessageCollection = collectionRef<BroadcastMessageRecord>('broadcast_message');

/** The messages in `broadcast_message`, by id, listed by start. */
@injectable()
export class BroadcastMessageRepository extends DocumentRepository<BroadcastMessageRecord> {
  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    super(store, broadcastMessageCollection, { order: { start: 1, _id: 1 } });
  }

  /** Messages whose window contains `at` (epoch seconds). */
  shownAt(at: number): Promise<BroadcastMessageRecord[]> {
    return this.documents.find({ start: { $lte: at }, end: { $gte: at } }, { sort: { start: 1, _id: 1 } });
  }
}
