import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Collection, type Doc, type Store } from '@vigie/kernel';

/** A local or external (directory, SSO) user as stored in `users`. */
export interface UserRecord extends Doc {
  /** The login name. */
  _id: string;
  role: string;
  enabled: boolean;
  /** Authenticated elsewhere (LDAP, CAS, SAML2): no local password. */
  external: boolean;
  /** `scrypt$…` hash, null for external users. */
  password: string | null;
  created: number;
  updated: number;
  /** Copied from the identity provider at each login of an external user. */
  mail?: string;
  firstname?: string;
  lastname?: string;
}

/** What an identity provider tells about a user besides the name. */
export type UserContact = Partial<Pick<UserRecord, 'mail' | 'firstname' | 'lastname'>>;

/** What may be shown of a user: everything but the password hash. */
export type PublicUser = Omit<UserRecord, 'password'>;

export function publicUser(user: UserRecord): PublicUser {
  const { password: _hidden, ...rest } = user;
  return rest;
}

@injectable()
export class UserRepository {
  readonly #users: Collection<UserRecord>;

  constructor(
    @injectRef(kernelRefs.store) store: Store,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {
    this.#users = store.collection<UserRecord>('users');
  }

  get(name: string): Promise<UserRecord | null> {
    return this.#users.findOne({ _id: name });
  }

  list(): Promise<UserRecord[]> {
    return this.#users.find({}, { sort: { _id: 1 } });
  }

  countWithRole(role: string): Promise<number> {
    return this.#users.count({ role });
  }

  async insert(user: Pick<UserRecord, '_id' | 'role' | 'enabled' | 'external' | 'password'> & UserContact): Promise<UserRecord> {
    const now = this.clock.nowSec();
    const record: UserRecord = { ...user, created: now, updated: now };
    await this.#users.insertOne(record);
    return record;
  }

  async update(name: string, changes: Partial<Pick<UserRecord, 'role' | 'enabled' | 'password' | 'mail' | 'firstname' | 'lastname'>>): Promise<boolean> {
    const result = await this.#users.updateOne({ _id: name }, { $set: { ...changes, updated: this.clock.nowSec() } });
    return result.matchedCount === 1;
  }

  async delete(name: string): Promise<boolean> {
    return (await this.#users.deleteOne({ _id: name })).deletedCount === 1;
  }
}
