import type { Entity, GraphDraft, RelationField } from '@vigie/context-graph';
import type { JsonValue } from '@vigie/kernel';
import { ImportFailure, type CiAction, type ImportPlan, type SuppliedFields } from './import-document.js';

export interface ImportStats {
  /** Entities created or changed, counterparts of links and deletions included. */
  updated: number;
  deleted: number;
}

/** Every entity id a plan names: what its draft must hold. */
export function namedIds(plan: ImportPlan): Set<string> {
  const ids = new Set<string>();
  for (const ci of plan.cis) {
    ids.add(ci.id);
    if (ci.action === 'create' || ci.action === 'set' || ci.action === 'update') {
      for (const field of ['impact', 'depends'] as const) for (const id of (ci.fields[field] as string[] | undefined) ?? []) ids.add(id);
    }
  }
  for (const link of plan.links) {
    for (const id of link.from) ids.add(id);
    ids.add(link.to);
  }
  return ids;
}

/** An impact pair: `from` impacts `to`. */
const pairKey = (from: string, to: string): string => `${from}\u0000${to}`;
const pairOf = (id: string, field: RelationField, other: string): string => (field === 'impact' ? pairKey(id, other) : pairKey(other, id));
const quote = (value: string): string => JSON.stringify(value);

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The original's `set` merge inside `infos`: nested objects merge, anything else is replaced. */
function mergeInto(current: JsonValue | undefined, supplied: JsonValue): JsonValue {
  if (!isObject(current) || !isObject(supplied)) return supplied;
  const merged: Record<string, JsonValue> = { ...current };
  for (const [key, value] of Object.entries(supplied)) merged[key] = mergeInto(current[key], value);
  return merged;
}

/**
 * Applies a plan to a draft of the graph in document order, CIs then links; the first action that cannot apply
 * throws an ImportFailure naming it. The draft keeps links reciprocal; this adds the import's rules.
 */
class PlanApplication {
  /** Impact pairs the CIs of this import declared (in `impact` or `depends`), with who declared them. */
  readonly #declared = new Map<string, { label: string; field: RelationField; other: string }>();
  /** The first CI (other than delete) naming each entity, and the delete CI of each deleted one. */
  readonly #changedBy = new Map<string, string>();
  readonly #deletedBy = new Map<string, string>();

  constructor(private readonly draft: GraphDraft) {}

  run(plan: ImportPlan): ImportStats {
    for (const ci of plan.cis) this.#applyCi(ci);
    this.#checkDangling();
    for (const link of plan.links) {
      for (const from of link.from) {
        if (!this.draft.exists(from)) throw new ImportFailure(`${link.label}: entity ${quote(from)} (from) does not exist`);
        if (!this.draft.exists(link.to)) throw new ImportFailure(`${link.label}: entity ${quote(link.to)} (to) does not exist`);
        if (link.action === 'create') this.draft.link(from, link.to);
        else if (!this.draft.unlink(from, link.to)) throw new ImportFailure(`${link.label}: ${quote(from)} does not impact ${quote(link.to)}, there is no link to delete`);
      }
    }
    const changes = this.draft.changes();
    return { updated: changes.created.length + changes.replaced.length, deleted: changes.deleted.length };
  }

  #applyCi(ci: CiAction): void {
    const current = this.draft.get(ci.id);
    if (ci.action === 'delete') {
      const changer = this.#changedBy.get(ci.id);
      if (changer !== undefined) throw new ImportFailure(`${ci.label}: the entity is also changed by ${changer}; an import may not both change and delete an entity`);
      if (!current) throw new ImportFailure(`${ci.label}: no entity with this id exists`);
      for (const field of ['impact', 'depends'] as const) for (const other of current[field]) this.#declared.delete(pairOf(ci.id, field, other));
      this.draft.remove(ci.id);
      this.#deletedBy.set(ci.id, ci.label);
      return;
    }
    const deleter = this.#deletedBy.get(ci.id);
    if (deleter !== undefined) throw new ImportFailure(`${ci.label}: the entity is also deleted by ${deleter}; an import may not both change and delete an entity`);
    if (!this.#changedBy.has(ci.id)) this.#changedBy.set(ci.id, ci.label);
    switch (ci.action) {
      case 'create':
        return this.#put(ci.label, this.#created(ci.id, ci.fields, current), ci.fields);
      case 'set':
        if (!current) return this.#put(ci.label, this.#created(ci.id, ci.fields, current), ci.fields);
        return this.#put(ci.label, { ...current, ...ci.fields, infos: isObject(ci.fields.infos) ? (mergeInto(current.infos, ci.fields.infos) as Entity['infos']) : current.infos }, ci.fields);
      case 'update':
        if (!current) throw new ImportFailure(`${ci.label}: no entity with this id exists`);
        return this.#put(ci.label, { ...current, ...ci.fields }, ci.fields);
      case 'enable':
      case 'disable': {
        if (!current) throw new ImportFailure(`${ci.label}: no entity with this id exists`);
        const history = ci.action === 'enable' ? 'enable_history' : 'disable_history';
        return this.#put(ci.label, { ...current, enabled: ci.action === 'enable', [history]: [...current[history], ...ci.timestamps] }, {});
      }
    }
  }

  /**
   * `create` (and `set` of a new entity): the supplied fields over the defaults. A full replacement: relations
   * not supplied are emptied, except those earlier elements of this import declared.
   */
  #created(id: string, fields: SuppliedFields, current: Entity | undefined): Entity {
    const keepDeclared = (field: RelationField) => this.draft.relations(id, field).filter((other) => this.#declared.has(pairOf(id, field, other)));
    return {
      _id: id,
      name: id,
      type: '',
      enabled: true,
      impact: keepDeclared('impact'),
      depends: keepDeclared('depends'),
      measurements: [],
      infos: {},
      // The history records what happened to the entity; it survives a replacement unless supplied.
      enable_history: current?.enable_history ?? [],
      disable_history: current?.disable_history ?? [],
      ...fields,
    };
  }

  #put(label: string, entity: Entity, supplied: SuppliedFields): void {
    for (const field of ['impact', 'depends'] as const) {
      const named = supplied[field] as string[] | undefined;
      if (!named) continue;
      const kept = new Set(named);
      for (const other of this.draft.relations(entity._id, field)) if (!kept.has(other)) this.#declared.delete(pairOf(entity._id, field, other));
      for (const other of named) this.#declared.set(pairOf(entity._id, field, other), { label, field, other });
    }
    this.draft.put(entity);
  }

  /** Relations CIs declared towards entities that exist neither in the store nor in this import. */
  #checkDangling(): void {
    const [first] = this.draft.danglingRelations();
    if (!first) return;
    const declared = this.#declared.get(pairOf(first.from, first.field, first.missing));
    if (declared) throw new ImportFailure(`${declared.label}: ${declared.field} lists ${quote(declared.other)}, which does not exist and is not created by this import`);
    throw new ImportFailure(`entity ${quote(first.from)} lists ${quote(first.missing)} in its ${first.field}, which does not exist`);
  }
}

/** Applies a validated plan to a draft; throws an ImportFailure at the first action that cannot apply. */
export function applyPlan(plan: ImportPlan, draft: GraphDraft): ImportStats {
  return new PlanApplication(draft).run(plan);
}
