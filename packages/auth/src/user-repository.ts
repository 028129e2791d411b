import { injectable } from 'tsyringe';
import { DocumentRepository, injectRef, kernelRefs, type Clock, type Doc, type Store } from '@vigie/kernel';

/** A local or external (directory, SSO) user as stored in `users`. */
export interface UserRecord extends Doc {
  /** The login name. */
  _id: string;
  /** The first of `roles` (records older than multi-role users have only this one). */
  role: string;
  /** Every role the user holds; their rights add up. */
  roles?: string[];
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

/** The roles of a user, records made before multi-role users included. */
export function rolesOf(user: Pick<UserRecord, 'role' | 'roles'>): string[] {
  return user.roles ?? (user.role ? [user.role] : []);
}

/** The stored form of a list of roles: `roles`, and `role` as its first for older readers. */
export function roleFields(roles: readonly string[]): Pick<UserRecord, 'role' | 'roles'> {
  return { role: roles[0] ?? '', roles: [...roles] };
}

/** What an identity provider tells about a user besides the name. */
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
    @injectRef(kernelRefs.store) store: Store,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {
    super(store, 'users', { order: { _id: 1 } });
  }

  countWithRole(role: string): Promise<number> {
    return this.documents.count({ $or: [{ roles: role }, { roles: { $exists: false }, role }] });
  }

  /** Stores a new user, created and updated now; a `DUPLICATE_KEY` error when the name is taken. */
  create(user: Pick<UserRecord, '_id' | 'role' | 'roles' | 'enabled' | 'external' | 'password'> & UserContact): Promise<UserRecord> {
    const now = this.clock.nowSec();
    return this.insert({ ...user, created: now, updated: now });
  }

  /** Sets the given fields and `updated`; false when no user has this name. */
  async update(name: string, changes: Partial<Pick<UserRecord, 'role' | 'roles' | 'enabled' | 'password' | 'mail' | 'firstname' | 'lastname'>>): Promise<boolean> {
    const result = await this.documents.updateOne({ _id: name }, { $set: { ...changes, updated: this.clock.nowSec() } });
    this.wrote();
    return result.matchedCount === 1;
  }
}
