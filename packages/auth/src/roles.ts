import { inject, injectable } from 'tsyringe';
import { collectionRef, everyRight, injectRef, kernelRefs, type Doc, type FeatureStore, type RouteCatalog, type Rights } from '@vigie/kernel';
import { DocumentRepository } from '@vigie/feature-kit';
import { authConfig, type AuthConfig } from './config.js';

/** A role made over HTTP, as stored in `roles`. */
export interface RoleRecord extends Doc {
  /** The role's name. */
  _id: string;
  description: string;
  rights: string[];
  created: number;
  updated: number;
}

/** A role as the API shows it: built-in or made by an administrator. */
export interface Role {
  name: string;
  description: string;
  rights: string[];
  builtIn: boolean;
}

export const operatorRole = 'operator';
export const viewerRole = 'viewer';

/** What every built-in role but the administrator's reads: the rights of action `read`, the audit log's excepted. */
function isReadRight(right: string): boolean {
  return right.endsWith(':read') && right !== 'audit:read';
}

/** What an operator does besides reading: acting on alarms and scheduling downtime. */
const operatorResources = new Set(['alarms', 'pbehaviors']);

/** The custom roles, by name. */
export const roleCollection = collectionRef<RoleRecord>('roles');

/** The custom roles in `roles`, by name. */
@injectable()
export class RoleRepository extends DocumentRepository<RoleRecord> {
  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    super(store, roleCollection, { order: { _id: 1 } });
  }

  findMany(names: readonly string[]): Promise<RoleRecord[]> {
    return this.documents.find({ _id: { $in: [...names] } });
  }
}

/**
 * The roles users hold: three built in — the administrator (`[auth] admin_role`, every right, those of features
 * composed later included), `operator` (read everything, act on alarms and pbehaviors) and `viewer` (read
 * everything) — and those made over HTTP. A user's rights are the union of their roles'; an unknown role grants
 * nothing.
 */
@injectable()
export class RoleCatalog {
  #builtIn: Map<string, Role> | undefined;

  constructor(
    @inject(RoleRepository) private readonly roles: RoleRepository,
    @injectRef(kernelRefs.routeCatalog) private readonly routes: RouteCatalog,
    @injectRef(authConfig.ref) private readonly config: AuthConfig,
  ) {}

  /** The write stamp of the custom roles (`DocumentRepository.stamp`): the rights of the roles change only with it. */
  get stamp(): number | undefined {
    return this.roles.stamp;
  }

  /** Every right a composed route needs (what custom roles and keys are made of). */
  knownRights(): string[] {
    return this.routes.rights();
  }

  /** The built-in roles, by name; their rights follow the composed features (computed once, after boot). */
  builtIn(): ReadonlyMap<string, Role> {
    if (!this.#builtIn) {
      const rights = this.knownRights();
      const reads = rights.filter(isReadRight);
      const acts = rights.filter((r) => operatorResources.has(r.slice(0, r.indexOf(':'))));
      this.#builtIn = new Map<string, Role>([
        [this.config.admin_role, { name: this.config.admin_role, description: 'Every right, those of features added later included', rights: [everyRight], builtIn: true }],
        [operatorRole, { name: operatorRole, description: 'Reads everything, acts on alarms and pbehaviors', rights: [...new Set([...reads, ...acts])].sort(), builtIn: true }],
        [viewerRole, { name: viewerRole, description: 'Reads everything', rights: reads, builtIn: true }],
      ]);
    }
    return this.#builtIn;
  }

  isBuiltIn(name: string): boolean {
    return this.builtIn().has(name);
  }

  async get(name: string): Promise<Role | null> {
    const builtIn = this.builtIn().get(name);
    if (builtIn) return builtIn;
    const record = await this.roles.get(name);
    return record ? customRole(record) : null;
  }

  async list(): Promise<Role[]> {
    return [...this.builtIn().values(), ...(await this.roles.list()).map(customRole)];
  }

  /** The union of the rights of these roles. */
  async rightsOf(names: readonly string[]): Promise<Rights> {
    const rights = new Set<string>();
    const custom: string[] = [];
    for (const name of names) {
      const builtIn = this.builtIn().get(name);
      if (builtIn) for (const right of builtIn.rights) rights.add(right);
      else custom.push(name);
    }
    if (custom.length > 0) for (const role of await this.roles.findMany(custom)) for (const right of role.rights) rights.add(right);
    return rights;
  }
}

function customRole(record: RoleRecord): Role {
  return { name: record._id, description: record.description, rights: [...record.rights], builtIn: false };
}
