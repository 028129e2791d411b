import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Clock, type Doc, type FeatureStore, type Filter } from '@vigie/kernel';
import { DocumentRepository, escapeRegExp } from '@vigie/feature-kit';

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

/** Users holding a role, records made before multi-role users included. */
function holdingRole(role: string): Filter {
  return { $or: [{ roles: role }, { roles: { $exists: false }, role }] };
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
    return this.documents.count(holdingRole(role));
  }

  /** Enabled users holding `role`, but `except`. */
  countEnabledWithRole(role: string, except: string): Promise<number> {
    return this.documents.count({ _id: { $ne: except }, enabled: true, ...holdingRole(role) });
  }

  /** One page of the users whose name, first name, last name or mail contains `text` (any case), by name. */
  async search(text: string | undefined, skip: number, limit: number): Promise<{ total: number; users: UserRecord[] }> {
    const pattern = text ? { $regex: escapeRegExp(text), $options: 'i' } : undefined;
    const filter: Filter = pattern ? { $or: ['_id', 'firstname', 'lastname', 'mail'].map((field) => ({ [field]: pattern })) } : {};
    const [total, users] = await Promise.all([this.documents.count(filter), this.documents.find(filter, { sort: { _id: 1 }, skip, limit })]);
    return { total, users };
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
