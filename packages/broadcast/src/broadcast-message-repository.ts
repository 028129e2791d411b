import { injectable } from 'tsyringe';
import { DocumentRepository, injectRef, kernelRefs, type Doc, type Store } from '@vigie/kernel';
import type { BroadcastMessage } from './schemas.js';

/** A message as stored in `broadcast_message`: the message as the API shows it. */
export interface BroadcastMessageRecord extends Doc, BroadcastMessage {}

/** The messages in `broadcast_message`, by id, listed by start. */
@injectable()
export class BroadcastMessageRepository extends DocumentRepository<BroadcastMessageRecord> {
  constructor(@injectRef(kernelRefs.store) store: Store) {
    super(store, 'broadcast_message', { order: { start: 1, _id: 1 } });
  }

  /** Messages whose window contains `at` (epoch seconds). */
  shownAt(at: number): Promise<BroadcastMessageRecord[]> {
    return this.documents.find({ start: { $lte: at }, end: { $gte: at } }, { sort: { start: 1, _id: 1 } });
  }
}
