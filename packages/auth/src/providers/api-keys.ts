import { inject, injectable } from 'tsyringe';
import type { AuthProvider, AuthRequest, ProviderOutcome } from '../provider.js';
import { ApiKeyRepository } from '../api-key-repository.js';
import { UserRepository } from '../user-repository.js';

/** `authkey`: a key in the query (`?authkey=`) or the `x-canopsis-authkey` header, acting as its user. */
@injectable()
export class ApiKeyProvider implements AuthProvider {
  readonly name = 'authkey';

  constructor(
    @inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @inject(UserRepository) private readonly users: UserRepository,
  ) {}

  credential(request: AuthRequest): string | null {
    return request.query('authkey') ?? (request.header('x-canopsis-authkey') || null);
  }

  async authenticate(request: AuthRequest): Promise<ProviderOutcome> {
    const key = this.credential(request) ?? undefined;
    if (key === undefined) return null;
    const record = await this.keys.find(key);
    if (!record) return { refused: 'unknown API key' };
    const user = await this.users.get(record.user);
    if (!user) return { refused: `API key of a deleted user ${record.user}` };
    if (!user.enabled) return { refused: `account ${user._id} is disabled` };
    return { user: { id: user._id, name: user._id, via: this.name, apiKey: record._id } };
  }
}
