import { inject, injectable } from 'tsyringe';
import type { AuthProvider, AuthRequest, ProviderOutcome } from '@vigie/auth';
import { LdapDirectory } from './ldap-directory.js';

/** `ldap` (`<product>.auth.ldap`): HTTP Basic and the login form checked against the configured directory. */
@injectable()
export class LdapProvider implements AuthProvider {
  readonly name = 'ldap';

  constructor(@inject(LdapDirectory) private readonly directory: LdapDirectory) {}

  credential(request: AuthRequest): string | null {
    const header = request.header('authorization');
    return /^basic /i.test(header) ? header : null;
  }

  async authenticate(request: AuthRequest): Promise<ProviderOutcome> {
    if (!request.basic) return null;
    return this.directory.login(request.basic.user, request.basic.password);
  }

  login(username: string, password: string): Promise<ProviderOutcome> {
    return this.directory.login(username, password);
  }
}
