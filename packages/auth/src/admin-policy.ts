import { injectable } from 'tsyringe';
import { HttpError, injectRef, type AuthenticatedUser } from '@vigie/kernel';
import { authConfig, type AuthConfig } from './config.js';

/**
 * Who may change identity configuration (LDAP and CAS records): users with `[auth] admin_role`. Anyone able to
 * change it could point logins at a directory of their own and sign on as anybody, so "any authenticated user"
 * (the spec's rule for other routes) is not enough here.
 */
@injectable()
export class AdminPolicy {
  constructor(@injectRef(authConfig.ref) private readonly config: AuthConfig) {}

  /** Throws 403 unless the user has the administrator role. */
  assertAdministrator(user: AuthenticatedUser | undefined, action: string): void {
    if (user?.role !== this.config.admin_role) {
      throw new HttpError(403, `${action} requires the ${this.config.admin_role} role`);
    }
  }
}
