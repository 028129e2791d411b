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

/**
 * Turns an identity into a user with rights, reading the account (and key) from the store on every request: a
 * disabled or deleted account, a revoked or expired key or a changed role takes effect at once on every node,
 * whatever the providers remembered.
 */
@injectable()
export class AccessResolver {
  constructor(
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @inject(RoleCatalog) private readonly roles: RoleCatalog,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  async grant(identity: Identity): Promise<{ user: AuthenticatedUser } | { refused: string }> {
    const account = await this.users.get(identity.id);
    if (!account) return { refused: `account ${identity.id} no longer exists` };
    if (!account.enabled) return { refused: `account ${identity.id} is disabled` };
    const roles = rolesOf(account);
    let rights = await this.roles.rightsOf(roles);
    if (identity.apiKey !== undefined) {
      const key = await this.keys.get(identity.apiKey);
      if (!key || key.user !== account._id) return { refused: 'API key revoked' };
      if (key.expires !== undefined && key.expires !== null && key.expires <= this.clock.nowSec()) return { refused: 'API key expired' };
      if (key.rights) rights = intersect(rights, key.rights);
    }
    // Whatever their roles (or key), users may read and change their own account.
    rights = new Set([...rights, ownAccountRight]);
    return {
      user: { id: identity.id, name: identity.name, via: identity.via, ...(roles[0] !== undefined ? { role: roles[0] } : {}), roles, rights },
    };
  }
}
