import { createHash } from 'node:crypto';
import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Clock, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';
import { authConfig, type AuthConfig } from './config.js';

/** Failed logins of one key (an account from one address, or one address), as stored in `login_failures`. */
interface FailureRecord extends Doc {
  _id: string;
  failures: number;
  /** Epoch ms before which the key is refused. */
  until: number;
  /** Epoch ms of the last failure: a quiet key starts afresh after `[auth] login_block_max_seconds`. */
  last: number;
}

export const loginFailureCollection = collectionRef<FailureRecord>('login_failures');

/** Failures allowed before waiting: per account and address, and per address whatever the account. */
const freePerAccount = 5;
const freePerAddress = 50;

function keyOf(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\n')).digest('hex')}`;
}

/**
 * Throttles password guessing (login form, Basic, LDAP): after a few failures of one account from one address, and
 * after many from one address, the key must wait, twice as long after each further failure, up to
 * `[auth] login_block_max_seconds`. Keys hold the account and the address together, so an attacker elsewhere
 * cannot lock a user out; a success clears the account's key. Kept in the store: every node counts the same.
 */
@injectable()
export class LoginThrottle {
  readonly #failures: Collection<FailureRecord>;

  constructor(
    @injectRef(kernelRefs.store) store: FeatureStore,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(authConfig.ref) private readonly config: AuthConfig,
  ) {
    this.#failures = store.collection(loginFailureCollection);
  }

  /** Seconds to wait before this account may try again from this address; 0 when it may now. */
  async waitSeconds(account: string, address: string): Promise<number> {
    const now = this.clock.nowMs();
    const records = await this.#failures.find({ _id: { $in: [keyOf('account', account, address), keyOf('address', address)] } });
    const until = Math.max(0, ...records.map((r) => r.until));
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  async failed(account: string, address: string): Promise<void> {
    await this.#count(keyOf('account', account, address), freePerAccount);
    await this.#count(keyOf('address', address), freePerAddress);
  }

  async succeeded(account: string, address: string): Promise<void> {
    await this.#failures.deleteOne({ _id: keyOf('account', account, address) });
  }

  async #count(id: string, free: number): Promise<void> {
    const now = this.clock.nowMs();
    const maxMs = this.config.login_block_max_seconds * 1000;
    const previous = await this.#failures.findOne({ _id: id });
    const failures = previous && now - previous.last < maxMs ? previous.failures + 1 : 1;
    const waitMs = failures > free ? Math.min(maxMs, 1000 * 2 ** (failures - free - 1)) : 0;
    await this.#failures.replaceOne({ _id: id }, { _id: id, failures, until: now + waitMs, last: now }, { upsert: true });
  }
}
