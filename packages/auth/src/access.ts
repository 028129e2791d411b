import { inject, injectable } from 'tsyringe';
import { everyRight, injectRef, ownAccountRight, kernelRefs, type AuthenticatedUser, type Clock, type Rights } from '@vigie/kernel';
import { ApiKeyRepository } from './api-key-repository.js';
import { RoleCatalog } from './roles.js';
import { rolesOf, UserRepository } from './user-repository.js';

/** Who a provider recognised: the account, the provider, and the API key when one was presented. */
export interface Identity {
  id: string;
  name: string;
  /** The provider that recognised the user (`basic`, `authkey`, `ldap`, …). */
  via: string;
  /** The digest (id) of the API key the request presented. */
  apiKey?: string;
}

/** The rights both sets grant; `everyRight` in one of them stands for all of the other's. */
function intersect(owner: Rights, key: readonly string[]): Rights {
  if (owner.has(everyRight)) return new Set(key);
  return new Set(key.filter((right) => owner.has(right)));
}

/** A grant kept for an identity: valid while no account, key or role was written since `stamp`, and the key lives. */
interface Kept {
  stamp: number;
  user: AuthenticatedUser;
  /** When the key expires (seconds), or Infinity. */
  until: number;
}

/**
 * Turns an identity into a user with rights, reading the account (and key) from the store on every request: a
 * disabled or deleted account, a revoked or expired key or a changed role takes effect at once on every node,
 * whatever the providers remembered. On a store only this process writes (`Store.writeStamp`), a grant is kept
 * until the next write to the accounts, keys or roles instead: that write moves the stamp before any read could see
 * it, so the next request reads again, exactly as if nothing were kept. Shared stores are read every time.
 */
@injectable()
export class AccessResolver {
  /** By identity object: the providers' credential cache hands the same one back for each request with a credential. */
  readonly #kept = new WeakMap<Identity, Kept>();

  constructor(
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @inject(RoleCatalog) private readonly roles: RoleCatalog,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  /** The last write to the accounts, keys or roles, or undefined when the store keeps no stamps. */
  #stamp(): number | undefined {
    const users = this.users.stamp;
    const keys = this.keys.stamp;
    const roles = this.roles.stamp;
    return users === undefined || keys === undefined || roles === undefined ? undefined : Math.max(users, keys, roles);
  }

  /** The user granted to this identity when nothing it depends on was written since (no store read), else undefined. */
  kept(identity: Identity): AuthenticatedUser | undefined {
    const kept = this.#kept.get(identity);
    if (kept === undefined || kept.stamp !== this.#stamp() || kept.until <= this.clock.nowSec()) return undefined;
    return kept.user;
  }

  async grant(identity: Identity): Promise<{ user: AuthenticatedUser } | { refused: string }> {
    // Taken before the reads: a write made while they run moves the stamp past it, so what they read is not kept.
    const stamp = this.#stamp();
    const account = await this.users.get(identity.id);
    if (!account) return { refused: `account ${identity.id} no longer exists` };
    if (!account.enabled) return { refused: `account ${identity.id} is disabled` };
    const roles = rolesOf(account);
    let rights = await this.roles.rightsOf(roles);
    let keyPrefix: string | undefined;
    let until = Infinity;
    if (identity.apiKey !== undefined) {
      const key = await this.keys.get(identity.apiKey);
      if (!key || key.user !== account._id) return { refused: 'API key revoked' };
      if (key.expires !== undefined && key.expires !== null && key.expires <= this.clock.nowSec()) return { refused: 'API key expired' };
      if (key.rights) rights = intersect(rights, key.rights);
      keyPrefix = key.prefix ?? identity.apiKey.slice(0, 10);
      until = key.expires ?? Infinity;
    }
    // Whatever their roles (or key), users may read and change their own account.
    rights = new Set([...rights, ownAccountRight]);
    // Frozen: a kept user is shared by the requests that follow.
    const user: AuthenticatedUser = Object.freeze({
      id: identity.id,
      name: identity.name,
      via: identity.via,
      ...(roles[0] !== undefined ? { role: roles[0] } : {}),
      roles: Object.freeze(roles),
      rights,
      ...(keyPrefix !== undefined ? { apiKey: keyPrefix } : {}),
    });
    if (stamp !== undefined) this.#kept.set(identity, { stamp, user, until });
    return { user };
  }
}
