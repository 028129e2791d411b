import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';

/** The original's `object` collection, where identity providers keep their `cservice` records (LDAP, CAS). */
export const identityRecordCollection = collectionRef<Doc>('object');

/**
 * The identity providers' configuration records, one document each: the auth feature owns the collection, the LDAP
 * and CAS packages read and write their record through this service (`identityRecordsRef`).
 */
@injectable()
export class IdentityRecords {
  readonly #objects: Collection;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#objects = store.collection(identityRecordCollection);
  }

  get<T extends Doc>(id: string): Promise<T | null> {
    return this.#objects.findOne({ _id: id }) as Promise<T | null>;
  }

  /** Stores the record, replacing the one with its `_id`. */
  async put(record: Doc): Promise<void> {
    await this.#objects.replaceOne({ _id: record._id }, record, { upsert: true });
  }
}
