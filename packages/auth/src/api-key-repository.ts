import { createHash, randomBytes } from 'node:crypto';
import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Collection, type Doc, type Store } from '@vigie/kernel';

/** Keys are stored as their SHA-256 digest: a leaked store does not leak usable keys. */
export interface ApiKeyRecord extends Doc {
  /** SHA-256 hex of the key. */
  _id: string;
  user: string;
  label: string;
  created: number;
}

export function digestKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

@injectable()
export class ApiKeyRepository {
  readonly #keys: Collection<ApiKeyRecord>;

  constructor(
    @injectRef(kernelRefs.store) store: Store,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {
    this.#keys = store.collection<ApiKeyRecord>('api_keys');
  }

  /** Creates a key for a user; the key itself is returned once and never stored. */
  async create(user: string, label: string): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = `vk_${randomBytes(32).toString('base64url')}`;
    const record: ApiKeyRecord = { _id: digestKey(key), user, label, created: this.clock.nowSec() };
    await this.#keys.insertOne(record);
    return { key, record };
  }

  find(key: string): Promise<ApiKeyRecord | null> {
    return this.#keys.findOne({ _id: digestKey(key) });
  }

  listFor(user: string): Promise<ApiKeyRecord[]> {
    return this.#keys.find({ user }, { sort: { created: 1 } });
  }

  async revoke(id: string): Promise<boolean> {
    return (await this.#keys.deleteOne({ _id: id })).deletedCount === 1;
  }

  async revokeAllOf(user: string): Promise<number> {
    return (await this.#keys.deleteMany({ user })).deletedCount;
  }
}
