import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { ErrorCodes, injectRef, kernelRefs, VigieError, type EventBus } from '@vigie/kernel';
import { ApiKeyRepository, type ApiKeyRecord } from './api-key-repository.js';
import { hashPassword } from './password.js';
import type { ProviderOutcome } from './provider.js';
import { usersChangedEvent } from './refs.js';
import { Sessions } from './sessions.js';
import { publicUser, UserRepository, type PublicUser, type UserContact } from './user-repository.js';

const userNamePattern = /^[^\s:\p{Cc}][^:\p{Cc}]{0,254}$/u;
export const minimumPasswordLength = 8;

function invalid(message: string): VigieError {
  return new VigieError(ErrorCodes.Validation, message);
}

/** Managing users and API keys (command line, future admin routes). */
@injectable()
export class UserAdministration {
  constructor(
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @injectRef(kernelRefs.eventBus) private readonly events: EventBus,
    @inject(Sessions) private readonly sessions: Sessions,
  ) {}

  async addUser(input: { name: string; password: string; role?: string }): Promise<PublicUser> {
    if (!userNamePattern.test(input.name)) throw invalid('a user name is 1 to 255 characters, without colon or control characters, not starting with a space');
    if (input.password.length < minimumPasswordLength) throw invalid(`a password has at least ${minimumPasswordLength} characters`);
    if (await this.users.get(input.name)) throw invalid(`user ${input.name} already exists`);
    const record = await this.users.create({
      _id: input.name,
      role: input.role ?? 'user',
      enabled: true,
      external: false,
      password: await hashPassword(input.password),
    });
    return publicUser(record);
  }

  async setPassword(name: string, password: string): Promise<void> {
    if (password.length < minimumPasswordLength) throw invalid(`a password has at least ${minimumPasswordLength} characters`);
    if (!(await this.users.update(name, { password: await hashPassword(password) }))) throw invalid(`no user ${name}`);
    await this.events.emit(usersChangedEvent, { user: name });
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    if (!(await this.users.update(name, { enabled }))) throw invalid(`no user ${name}`);
    if (!enabled) await this.sessions.closeAllOf(name);
    await this.events.emit(usersChangedEvent, { user: name });
  }

  async deleteUser(name: string): Promise<void> {
    if (!(await this.users.delete(name))) throw invalid(`no user ${name}`);
    await this.keys.revokeAllOf(name);
    await this.sessions.closeAllOf(name);
    await this.events.emit(usersChangedEvent, { user: name });
  }

  async listUsers(): Promise<PublicUser[]> {
    return (await this.users.list()).map(publicUser);
  }

  /**
   * Signs on a user an identity provider (LDAP, CAS, SAML2) has verified: created with `defaultRole` at first
   * login, its contact fields refreshed at every login. A local account of the same name is never taken over
   * (a directory entry named like the local administrator must not become it), and a disabled account stays out.
   * `roles`, from a provider that maps roles (OpenID Connect), replaces the user's role at every login — the first
   * one, while a user holds one role — so removing someone from a group at the provider takes effect at their next login.
   */
  async signOnExternal(input: { name: string; via: string; defaultRole: string; contact: UserContact; roles?: readonly string[] }): Promise<ProviderOutcome> {
    if (!userNamePattern.test(input.name)) return { refused: `${input.via} user name ${JSON.stringify(input.name)} is not a valid Vigie user name` };
    const contact = Object.fromEntries(Object.entries(input.contact).filter(([, value]) => typeof value === 'string')) as UserContact;
    const grantedRole = input.roles?.[0];
    const changes = grantedRole === undefined ? contact : { ...contact, role: grantedRole };
    let user = await this.users.get(input.name);
    if (user && !user.external) return { refused: `${input.name} is a local account; ${input.via} may not sign it on` };
    if (!user) {
      try {
        user = await this.users.create({ _id: input.name, role: grantedRole ?? input.defaultRole, enabled: true, external: true, password: null, ...contact });
      } catch (err) {
        // Two first logins at once: the other one created it.
        if ((err as { code?: string }).code !== ErrorCodes.DuplicateKey) throw err;
        user = await this.users.get(input.name);
        if (!user?.external) return { refused: `${input.name} is a local account; ${input.via} may not sign it on` };
      }
    } else if (Object.keys(changes).length > 0) {
      await this.users.update(input.name, changes);
      // Remembered credentials (the user's API keys) carry the role: a new one must be seen at once.
      if (grantedRole !== undefined && grantedRole !== user.role) await this.events.emit(usersChangedEvent, { user: input.name });
      user = { ...user, ...changes };
    }
    if (!user.enabled) return { refused: `account ${user._id} is disabled` };
    return { user: { id: user._id, name: user._id, role: user.role, via: input.via } };
  }

  /** Returns the key once: only its digest is stored. */
  async createApiKey(user: string, label = ''): Promise<{ key: string; id: string }> {
    if (!(await this.users.get(user))) throw invalid(`no user ${user}`);
    const { key, record } = await this.keys.create(user, label);
    return { key, id: record._id };
  }

  listApiKeys(user: string): Promise<ApiKeyRecord[]> {
    return this.keys.listFor(user);
  }

  async revokeApiKey(id: string): Promise<void> {
    if (!(await this.keys.delete(id))) throw invalid(`no API key ${id}`);
    await this.forgetCredentials();
  }

  /** Every remembered credential must be checked again (an identity provider's settings changed). */
  async forgetCredentials(): Promise<void> {
    await this.events.emit(usersChangedEvent, { user: '' });
  }

  /**
   * Creates the first administrator when no account has the admin role: from `VIGIE_ADMIN_USER` and
   * `VIGIE_ADMIN_PASSWORD`, or with a generated password returned so it can be shown once.
   */
  async ensureAdministrator(env: Readonly<Record<string, string | undefined>>, role: string): Promise<{ name: string; generatedPassword: string | null } | null> {
    if ((await this.users.countWithRole(role)) > 0) return null;
    const name = env.VIGIE_ADMIN_USER || 'root';
    const given = env.VIGIE_ADMIN_PASSWORD;
    const password = given || randomBytes(18).toString('base64url');
    const existing = await this.users.get(name);
    if (existing) {
      await this.users.update(name, { role, enabled: true, ...(given ? { password: await hashPassword(given) } : {}) });
      return { name, generatedPassword: null };
    }
    await this.addUser({ name, password, role });
    return { name, generatedPassword: given ? null : password };
  }
}
