import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { ErrorCodes, holdsRight, HttpError, injectRef, kernelRefs, ownAccountRight, VigieError, type Clock, type EventBus } from '@vigie/kernel';
import { ApiKeyRepository, type ApiKeyRecord } from './api-key-repository.js';
import { authConfig, type AuthConfig } from './config.js';
import { hashPassword, verifyPassword } from './password.js';
import type { ProviderOutcome } from './provider.js';
import { usersChangedEvent } from './refs.js';
import { Sessions } from './sessions.js';
import { publicUser, roleFields, rolesOf, UserRepository, type PublicUser, type UserContact } from './user-repository.js';
import { RoleAdministration } from './role-administration.js';
import { RoleCatalog, viewerRole } from './roles.js';

const userNamePattern = /^[^\s:\p{Cc}][^:\p{Cc}]{0,254}$/u;
export const minimumPasswordLength = 8;

function invalid(message: string): VigieError {
  return new VigieError(ErrorCodes.Validation, message);
}

function noUser(name: string): HttpError {
  return new HttpError(404, `no user ${name}`);
}

function checkPassword(password: string): void {
  if (password.length < minimumPasswordLength) throw invalid(`a password has at least ${minimumPasswordLength} characters`);
}

/** What an administrator sets on an account (over HTTP or the command line). */
export interface UserChanges extends UserContact {
  roles?: string[];
  enabled?: boolean;
  password?: string;
}

/** One page of users. */
export interface UserPage {
  data: PublicUser[];
  meta: { page: number; per_page: number; page_count: number; total_count: number };
}

/** An API key as lists show it: never the key, only its first characters. */
export interface ApiKeyView {
  id: string;
  user: string;
  label: string;
  prefix: string | null;
  created: number;
  expires: number | null;
  rights: string[] | null;
}

export function apiKeyView(record: ApiKeyRecord): ApiKeyView {
  return {
    id: record._id,
    user: record.user,
    label: record.label,
    prefix: record.prefix ?? null,
    created: record.created,
    expires: record.expires ?? null,
    rights: record.rights ?? null,
  };
}

/**
 * Managing users and API keys: the HTTP routes and the `vigie user` / `vigie apikey` commands both go through it.
 * Disabling or deleting an account ends its sessions; its keys and remembered credentials stop working at the next
 * request on every node, because each request reads the account (`AccessResolver`).
 */
@injectable()
export class UserAdministration {
  constructor(
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @injectRef(kernelRefs.eventBus) private readonly events: EventBus,
    @inject(Sessions) private readonly sessions: Sessions,
    @inject(RoleAdministration) private readonly roles: RoleAdministration,
    @inject(RoleCatalog) private readonly catalog: RoleCatalog,
    @injectRef(authConfig.ref) private readonly config: AuthConfig,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  /** A local account; `role` (one) is what the command line gives, `roles` what the API does. */
  async addUser(input: { name: string; password: string; role?: string; roles?: string[]; enabled?: boolean } & UserContact): Promise<PublicUser> {
    if (!userNamePattern.test(input.name)) throw invalid('a user name is 1 to 255 characters, without colon or control characters, not starting with a space');
    checkPassword(input.password);
    const roles = input.roles ?? [input.role ?? viewerRole];
    await this.roles.assertExist(roles);
    if (await this.users.get(input.name)) throw new HttpError(409, `user ${input.name} already exists`);
    const record = await this.users.create({
      _id: input.name,
      ...roleFields(roles),
      enabled: input.enabled ?? true,
      external: false,
      password: await hashPassword(input.password, this.config.password_hash_cost),
      ...contactOf(input),
    });
    return publicUser(record);
  }

  async getUser(name: string): Promise<PublicUser> {
    const user = await this.users.get(name);
    if (!user) throw noUser(name);
    return publicUser(user);
  }

  /** Users whose name, first name, last name or mail contains `search` (any case), by name. */
  async findUsers(query: { search?: string; page: number; limit: number }): Promise<UserPage> {
    const { total, users } = await this.users.search(query.search?.trim() || undefined, (query.page - 1) * query.limit, query.limit);
    return {
      data: users.map(publicUser),
      meta: { page: query.page, per_page: query.limit, page_count: Math.ceil(total / query.limit), total_count: total },
    };
  }

  async updateUser(name: string, changes: UserChanges): Promise<PublicUser> {
    const user = await this.users.get(name);
    if (!user) throw noUser(name);
    if (changes.password !== undefined) {
      if (user.external) throw new HttpError(409, `${name} is authenticated by an identity provider: it has no local password`);
      checkPassword(changes.password);
    }
    if (changes.roles) await this.roles.assertExist(changes.roles);
    const losesAdministration =
      (changes.enabled === false || (changes.roles !== undefined && !changes.roles.includes(this.config.admin_role))) && user.enabled && rolesOf(user).includes(this.config.admin_role);
    if (losesAdministration) await this.#keepOneAdministrator(name);
    await this.users.update(name, {
      ...(changes.roles ? roleFields(changes.roles) : {}),
      ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
      ...(changes.password !== undefined ? { password: await hashPassword(changes.password, this.config.password_hash_cost) } : {}),
      ...contactOf(changes),
    });
    if (changes.enabled === false || changes.password !== undefined) await this.sessions.closeAllOf(name);
    await this.events.emit(usersChangedEvent, { user: name });
    return this.getUser(name);
  }

  async setPassword(name: string, password: string): Promise<void> {
    await this.updateUser(name, { password });
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.updateUser(name, { enabled });
  }

  /** A user's own change of their contact fields or password, proven by the current password. */
  async updateOwnAccount(name: string, input: { current_password: string; password?: string } & UserContact): Promise<PublicUser> {
    const user = await this.users.get(name);
    if (!user) throw noUser(name);
    if (user.external || user.password === null) throw new HttpError(409, `${name} is managed by its identity provider`);
    if (!(await verifyPassword(input.current_password, user.password))) throw new HttpError(400, 'the current password is wrong');
    return this.updateUser(name, { ...contactOf(input), ...(input.password !== undefined ? { password: input.password } : {}) });
  }

  async deleteUser(name: string): Promise<void> {
    const user = await this.users.get(name);
    if (!user) throw noUser(name);
    if (user.enabled && rolesOf(user).includes(this.config.admin_role)) await this.#keepOneAdministrator(name);
    await this.users.delete(name);
    await this.keys.revokeAllOf(name);
    await this.sessions.closeAllOf(name);
    await this.events.emit(usersChangedEvent, { user: name });
  }

  async listUsers(): Promise<PublicUser[]> {
    return (await this.users.list()).map(publicUser);
  }

  /** Nobody could give the role back: the last enabled administrator stays one. */
  async #keepOneAdministrator(name: string): Promise<void> {
    const others = await this.users.countEnabledWithRole(this.config.admin_role, name);
    if (others === 0) throw new HttpError(409, `${name} is the last enabled ${this.config.admin_role}`);
  }

  /**
   * Signs on a user an identity provider (LDAP, CAS, SAML2) has verified: created with `defaultRole` at first
   * login, its contact fields refreshed at every login. A local account of the same name is never taken over
   * (a directory entry named like the local administrator must not become it), and a disabled account stays out.
   * `roles`, from a provider that maps roles (OpenID Connect), replace the user's roles at every login, so removing
   * someone from a group at the provider takes effect at their next login.
   */
  async signOnExternal(input: { name: string; via: string; defaultRole: string; contact: UserContact; roles?: readonly string[] }): Promise<ProviderOutcome> {
    if (!userNamePattern.test(input.name)) return { refused: `${input.via} user name ${JSON.stringify(input.name)} is not a valid Vigie user name` };
    const contact = Object.fromEntries(Object.entries(input.contact).filter(([, value]) => typeof value === 'string')) as UserContact;
    const changes = input.roles === undefined ? contact : { ...contact, ...roleFields(input.roles) };
    let user = await this.users.get(input.name);
    if (user && !user.external) return { refused: `${input.name} is a local account; ${input.via} may not sign it on` };
    if (!user) {
      try {
        user = await this.users.create({ _id: input.name, ...roleFields(input.roles ?? [input.defaultRole]), enabled: true, external: true, password: null, ...contact });
      } catch (err) {
        // Two first logins at once: the other one created it.
        if ((err as { code?: string }).code !== ErrorCodes.DuplicateKey) throw err;
        user = await this.users.get(input.name);
        if (!user?.external) return { refused: `${input.name} is a local account; ${input.via} may not sign it on` };
      }
    } else if (Object.keys(changes).length > 0) {
      await this.users.update(input.name, changes);
    }
    if (!user.enabled) return { refused: `account ${user._id} is disabled` };
    return { user: { id: user._id, name: user._id, via: input.via } };
  }

  /**
   * Returns the key once: only its digest and first characters are stored. `rights` narrows the key to part of
   * its owner's rights (checked again at each use, so a demoted owner's keys lose them too).
   */
  async createApiKey(user: string, options: { label?: string; expires?: number | null; rights?: string[] } = {}): Promise<{ key: string; id: string; view: ApiKeyView }> {
    const { label = '', expires = null, rights } = options;
    const owner = await this.users.get(user);
    if (!owner) throw noUser(user);
    if (expires !== null && expires <= this.clock.nowSec()) throw invalid('expires must be in the future');
    if (rights) {
      const held = new Set([...(await this.catalog.rightsOf(rolesOf(owner))), ownAccountRight]);
      const known = new Set(this.catalog.knownRights());
      const beyond = rights.filter((right) => !known.has(right) || !holdsRight(held, right));
      if (beyond.length > 0) throw invalid(`rights not held by ${user}: ${beyond.join(', ')}`);
    }
    const { key, record } = await this.keys.create(user, { label, expires, ...(rights ? { rights: [...new Set(rights)].sort() } : {}) });
    return { key, id: record._id, view: apiKeyView(record) };
  }

  async listApiKeys(user: string): Promise<ApiKeyView[]> {
    return (await this.keys.listFor(user)).map(apiKeyView);
  }

  /** Revokes a key; with `owner`, only one of theirs (another's answers 404, as an unknown one). */
  async revokeApiKey(id: string, owner?: string): Promise<void> {
    const record = await this.keys.get(id);
    if (!record || (owner !== undefined && record.user !== owner)) throw new HttpError(404, `no API key ${id}`);
    await this.keys.delete(id);
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
      await this.users.update(name, { ...roleFields([role]), enabled: true, ...(given ? { password: await hashPassword(given, this.config.password_hash_cost) } : {}) });
      return { name, generatedPassword: null };
    }
    await this.addUser({ name, password, role });
    return { name, generatedPassword: given ? null : password };
  }
}

/** The contact fields present in an input. */
function contactOf(input: UserContact): UserContact {
  const contact: UserContact = {};
  if (input.mail !== undefined) contact.mail = input.mail;
  if (input.firstname !== undefined) contact.firstname = input.firstname;
  if (input.lastname !== undefined) contact.lastname = input.lastname;
  return contact;
}
