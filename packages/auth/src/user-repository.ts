import { injectable } from 'tsyringe';
import { collectionRef, DocumentRepository, injectRef, kernelRefs, type Clock, type Doc, type FeatureStore } from '@vigie/kernel';

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
export const userCollection = collectionRef<UserRecord>('users');

export type UserContact = Partial<Pick<UserRecord, 'mail' | 'firstname' | 'lastname'>>;

/** What may be shown of a user: everything but the password hash. */
export type PublicUser = Omit<UserRecord, 'password'>;

export function publicUser(user: UserRecord): PublicUser {
  const { password: _hidden, ...rest } = user;
  return rest;
}

/** The users in `users`, by login name; `created` and `updated` are stamped here. */
@injectable()
export class UserRepository extends DocumentRepository<UserRecord> {
  constructor(
    @injectRef(kernelRefs.store) store: FeatureStore,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {
    super(store, userCollection, { order: { _id: 1 } });
  }

  countWithRole(role: string): Promise<number> {
    return this.documents.count({ role });
  }

  /** Stores a new user, created and updated now; a `DUPLICATE_KEY` error when the name is taken. */
  create(user: Pick<UserRecord, '_id' | 'role' | 'enabled' | 'external' | 'password'> & UserContact): Promise<UserRecord> {
    const now = this.clock.nowSec();
    return this.insert({ ...user, created: now, updated: now });
  }

  /** Sets the given fields and `updated`; false when no user has this name. */
  async update(name: string, changes: Partial<Pick<UserRecord, 'role' | 'enabled' | 'password' | 'mail' | 'firstname' | 'lastname'>>): Promise<boolean> {
    const result = await this.documents.updateOne({ _id: name }, { $set: { ...changes, updated: this.clock.nowSec() } });
    this.wrote();
    return result.matchedCount === 1;
  }
}
