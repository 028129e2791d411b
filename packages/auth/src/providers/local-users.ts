import { inject, injectable } from 'tsyringe';
import { injectRef } from '@vigie/kernel';
import { authConfig, type AuthConfig } from '../config.js';
import type { AuthProvider, AuthRequest, ProviderOutcome } from '../provider.js';
import { decoyHash, verifyPassword } from '../password.js';
import { UserRepository } from '../user-repository.js';

/** `basic`: HTTP Basic (and the login form) against local users (scrypt hashes). Unknown users are refused; later providers still try. */
@injectable()
export class LocalUserProvider implements AuthProvider {
  readonly name = 'basic';

  constructor(
    @inject(UserRepository) private readonly users: UserRepository,
    @injectRef(authConfig.ref) private readonly config: AuthConfig,
  ) {}

  credential(request: AuthRequest): string | null {
    const header = request.header('authorization');
    return /^basic /i.test(header) ? header : null;
  }

  async authenticate(request: AuthRequest): Promise<ProviderOutcome> {
    if (!request.basic) return request.header('authorization') ? { refused: 'malformed Authorization header' } : null;
    return this.login(request.basic.user, request.basic.password);
  }

  async login(username: string, password: string): Promise<ProviderOutcome> {
    const user = await this.users.get(username);
    if (!user || user.external || user.password === null) {
      // Spend the same time as a real check, so timing does not tell which names exist.
      await verifyPassword(password, decoyHash(this.config.password_hash_cost));
      return { refused: `no local account ${username}` };
    }
    const matches = await verifyPassword(password, user.password);
    if (!matches) return { refused: `wrong password for ${user._id}` };
    if (!user.enabled) return { refused: `account ${user._id} is disabled` };
    return { user: { id: user._id, name: user._id, via: this.name } };
  }
}
