import { createHash, randomBytes } from 'node:crypto';
import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Clock, type Doc, type FeatureStore } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';

/** Keys are stored as their SHA-256 digest: a leaked store does not leak usable keys. */
export interface ApiKeyRecord extends Doc {
  /** SHA-256 hex of the key. */
  _id: string;
  user: string;
  label: string;
  created: number;
  /** The key's first characters, to tell keys apart in lists (the rest is never stored). */
  prefix?: string;
  /** Epoch seconds after which the key is refused; absent: never. */
  expires?: number | null;
  /** The rights the key may use (a subset of its owner's); absent: all of the owner's. */
  rights?: string[];
}

export const apiKeyCollection = collectionRef<ApiKeyRecord>('api_keys');

export function digestKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The API keys in `api_keys`, by digest. */
@injectable()
export class ApiKeyRepository extends DocumentRepository<ApiKeyRecord> {
  constructor(
    @injectRef(kernelRefs.store) store: FeatureStore,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {
    super(store, apiKeyCollection);
  }

  /** Creates a key for a user; the key itself is returned once and never stored. */
  async create(user: string, options: Pick<ApiKeyRecord, 'label' | 'expires' | 'rights'>): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = `vk_${randomBytes(32).toString('base64url')}`;
    const record = await this.insert({ _id: digestKey(key), user, ...options, prefix: key.slice(0, 10), created: this.clock.nowSec() });
    return { key, record };
  }

  /** The record of a key as presented (not its digest). */
  find(key: string): Promise<ApiKeyRecord | null> {
    return this.get(digestKey(key));
  }

  listFor(user: string): Promise<ApiKeyRecord[]> {
    return this.documents.find({ user }, { sort: { created: 1 } });
  }

  async revokeAllOf(user: string): Promise<number> {
    const { deletedCount } = await this.documents.deleteMany({ user });
    this.wrote();
    return deletedCount;
  }
}
