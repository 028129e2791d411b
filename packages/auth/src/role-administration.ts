import { inject, injectable } from 'tsyringe';
import { ErrorCodes, HttpError, injectRef, kernelRefs, VigieError, type Clock, type EventBus } from '@vigie/kernel';
import { usersChangedEvent } from './refs.js';
import { RoleCatalog, RoleRepository, type Role } from './roles.js';
import { UserRepository } from './user-repository.js';

export const roleNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface RoleInput {
  name: string;
  /** '' when left out (bodies are checked as sent: schema defaults do not apply). */
  description?: string;
  rights: string[];
}

/** Making, changing and removing custom roles; the built-in ones are read-only. */
@injectable()
export class RoleAdministration {
  constructor(
    @inject(RoleCatalog) private readonly catalog: RoleCatalog,
    @inject(RoleRepository) private readonly roles: RoleRepository,
    @inject(UserRepository) private readonly users: UserRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.eventBus) private readonly events: EventBus,
  ) {}

  async get(name: string): Promise<Role> {
    const role = await this.catalog.get(name);
    if (!role) throw noRole(name);
    return role;
  }

  async create(input: RoleInput): Promise<Role> {
    if (!roleNamePattern.test(input.name)) throw invalid('name is 1 to 64 letters, digits, _ . or -, starting with a letter or digit');
    this.#refuseBuiltIn(input.name);
    this.#checkRights(input.rights);
    const now = this.clock.nowSec();
    try {
      await this.roles.insert({ _id: input.name, description: input.description ?? '', rights: unique(input.rights), created: now, updated: now });
    } catch (err) {
      if ((err as { code?: string }).code === ErrorCodes.DuplicateKey) throw new HttpError(409, `role ${input.name} already exists`);
      throw err;
    }
    return this.get(input.name);
  }

  async update(name: string, input: Omit<RoleInput, 'name'>): Promise<Role> {
    this.#refuseBuiltIn(name);
    this.#checkRights(input.rights);
    const existing = await this.roles.get(name);
    if (!existing) throw noRole(name);
    await this.roles.replace({ ...existing, description: input.description ?? '', rights: unique(input.rights), updated: this.clock.nowSec() });
    await this.events.emit(usersChangedEvent, { user: '' });
    return this.get(name);
  }

  /** Refused while users hold the role: they would silently lose its rights. */
  async delete(name: string): Promise<void> {
    this.#refuseBuiltIn(name);
    if (!(await this.roles.get(name))) throw noRole(name);
    const holders = await this.users.countWithRole(name);
    if (holders > 0) throw new HttpError(409, `role ${name} is held by ${holders} user(s)`);
    await this.roles.delete(name);
  }

  /** Every role named exists (built in or custom); a user given an unknown role would hold nothing by it. */
  async assertExist(names: readonly string[]): Promise<void> {
    for (const name of names) if (!(await this.catalog.get(name))) throw invalid(`unknown role ${name}`);
  }

  #refuseBuiltIn(name: string): void {
    if (this.catalog.isBuiltIn(name)) throw new HttpError(400, `role ${name} is built in and cannot be changed`);
  }

  #checkRights(rights: readonly string[]): void {
    const known = new Set(this.catalog.knownRights());
    const unknown = rights.filter((right) => !known.has(right));
    if (unknown.length > 0) throw invalid(`unknown rights: ${unknown.join(', ')}`);
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function invalid(message: string): VigieError {
  return new VigieError(ErrorCodes.Validation, message);
}

function noRole(name: string): HttpError {
  return new HttpError(404, `no role ${name}`);
}
