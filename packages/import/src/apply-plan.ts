import type { Entity, GraphChanges, GraphDraft, RelationField } from '@vigie/context-graph';
import type { JsonValue } from '@vigie/kernel';
import { isJsonObject } from '@vigie/json';
import { ImportFailure, actionFields, type CiAction, type CiElement, type ImportPlan } from './import-document.js';

export interface ImportStats {
  /** Entities created or changed, counterparts of links and deletions included. */
  updated: number;
  deleted: number;
}

export function importStats(changes: GraphChanges): ImportStats {
  return { updated: changes.created.length + changes.replaced.length, deleted: changes.deleted.length };
}

const relationFields = ['impact', 'depends'] as const;

/** The relation list an element supplies, if any (checked by `readDocument`). */
const suppliedRelations = (element: CiElement, field: RelationField): string[] | undefined => element[field] as string[] | undefined;

/**
 * What a plan's draft must hold: every entity id it names (`ids`), and among them those whose entity the plan
 * replaces whole before anything else reads or changes it (`replaced`: named first by a `create`), of which the draft
 * needs only the relations and histories. A re-import of a million entities copied every field of each out of the
 * store to drop them.
 */
export function draftRequest(plan: ImportPlan): { ids: Set<string>; replaced: Set<string> } {
  const ids = new Set<string>();
  const replaced = new Set<string>();
  for (const ci of plan.cis) {
    if (ci.action === 'create' && !ids.has(ci.id)) replaced.add(ci.id);
    ids.add(ci.id);
    if ('element' in ci) for (const field of relationFields) for (const id of suppliedRelations(ci.element, field) ?? []) ids.add(id);
  }
  for (const link of plan.links) {
    for (const id of link.from) ids.add(id);
    ids.add(link.to);
  }
  return { ids, replaced };
}

/** An impact pair: `from` impacts `to`. */
const pairKey = (from: string, to: string): string => `${from}\u0000${to}`;
const pairOf = (id: string, field: RelationField, other: string): string => (field === 'impact' ? pairKey(id, other) : pairKey(other, id));
const quote = (value: string): string => JSON.stringify(value);

/** The original's `set` merge: nested objects merge, lists and scalars are replaced. */
function mergeInto(current: JsonValue | undefined, supplied: JsonValue): JsonValue {
  if (!isJsonObject(current) || !isJsonObject(supplied)) return supplied;
  const merged: Record<string, JsonValue> = { ...current };
  for (const [key, value] of Object.entries(supplied)) merged[key] = mergeInto(current[key], value);
  return merged;
}

/** The failure of an import that both changes and deletes one entity, worded as the original words it. */
function bothChangedAndDeleted(ci: CiAction, other: CiAction): string {
  return `${ci.label}: The entity ${ci.id} to be deleted is updated in the same import. Update aborted. (see also ${other.label})`;
}

/** Copies the element's entity fields (all but `_id`, `action`, `action_properties`) over `entity`. */
function copyFields(entity: Entity, element: CiElement): Entity {
  for (const key of Object.keys(element)) if (!actionFields.has(key)) (entity as Record<string, unknown>)[key] = element[key];
  return entity;
}

/**
 * Applies a plan to a draft of the graph in document order, CIs then links; the first action that cannot apply
 * throws an ImportFailure naming it. The draft keeps links reciprocal; this adds the import's rules.
 */
class PlanApplication {
  /** Impact pairs the CIs of this import declared (in `impact` or `depends`), with who declared them. */
  readonly #declared = new Map<string, { ci: CiAction; field: RelationField; other: string }>();
  /** The first CI (other than delete) naming each entity, and the delete CI of each deleted one. */
  readonly #changedBy = new Map<string, CiAction>();
  readonly #deletedBy = new Map<string, CiAction>();

  constructor(private readonly draft: GraphDraft) {}

  run(plan: ImportPlan): GraphChanges {
    // Only CIs before the last delete are noted in `#changedBy`: no later delete can name the others (an import of a
    // million creations held a map of a million entries for nothing).
    const lastDelete = plan.cis.findLastIndex((ci) => ci.action === 'delete');
    releasing(plan.cis, (ci, position) => this.#applyCi(ci, position < lastDelete));
    this.#checkDangling();
    releasing(plan.links, (link) => {
      for (const from of link.from) {
        if (!this.draft.exists(from)) throw new ImportFailure(`${link.label}: entity ${quote(from)} (from) does not exist`);
        if (!this.draft.exists(link.to)) throw new ImportFailure(`${link.label}: entity ${quote(link.to)} (to) does not exist`);
        if (link.action === 'create') this.draft.link(from, link.to);
        else if (!this.draft.unlink(from, link.to)) throw new ImportFailure(`${link.label}: ${quote(from)} does not impact ${quote(link.to)}, there is no link to delete`);
      }
    });
    return this.draft.changes();
  }

  #applyCi(ci: CiAction, deleteMayFollow: boolean): void {
    if (ci.action === 'delete') {
      const current = this.draft.get(ci.id);
      const changer = this.#changedBy.get(ci.id);
      if (changer !== undefined) throw new ImportFailure(bothChangedAndDeleted(ci, changer));
      if (!current) throw new ImportFailure(`${ci.label}: no entity with this id exists`);
      for (const field of relationFields) for (const other of current[field]) this.#declared.delete(pairOf(ci.id, field, other));
      this.draft.remove(ci.id);
      this.#deletedBy.set(ci.id, ci);
      return;
    }
    const deleter = this.#deletedBy.get(ci.id);
    if (deleter !== undefined) throw new ImportFailure(bothChangedAndDeleted(ci, deleter));
    if (deleteMayFollow && !this.#changedBy.has(ci.id)) this.#changedBy.set(ci.id, ci);
    // A replacement reads only the histories it keeps: `get` copies the relations, for every element of an import.
    if (ci.action === 'create' || (ci.action === 'set' && !this.draft.exists(ci.id))) return this.#put(ci, copyFields(this.#defaults(ci.id, ci.element), ci.element));
    const current = this.draft.get(ci.id);
    if (!current) throw new ImportFailure(`${ci.label}: no entity with this id exists`);
    switch (ci.action) {
      case 'set': {
        const entity: Record<string, unknown> = { ...current };
        for (const key of Object.keys(ci.element)) if (!actionFields.has(key)) entity[key] = mergeInto(entity[key] as JsonValue | undefined, ci.element[key] as JsonValue);
        return this.#put(ci, entity as unknown as Entity);
      }
      case 'update':
        // As in the original, `update` needs an entity stored before the import, not one an earlier CI created.
        if (!this.draft.stored(ci.id)) throw new ImportFailure(`${ci.label}: The ci of id ${ci.id} does not match any existing entity.`);
        return this.#put(ci, copyFields({ ...current }, ci.element));
      case 'enable':
      case 'disable': {
        const history = ci.action === 'enable' ? 'enable_history' : 'disable_history';
        return this.#put(ci, { ...current, enabled: ci.action === 'enable', [history]: [...current[history], ...ci.timestamps] });
      }
    }
  }

  /**
   * What `create` (and `set` of a new entity) starts from. A full replacement: relations are emptied, except
   * those earlier elements of this import declared; the enable/disable history, a record of what happened to
   * the entity, is kept. The element's own lists and objects are taken rather than empty ones it would replace.
   */
  #defaults(id: string, element: CiElement): Entity {
    const histories = this.draft.histories(id);
    // Most imports declare no relation in their CIs: nothing to keep, nor to look up.
    const keepDeclared = (field: RelationField) =>
      this.#declared.size === 0 ? [] : this.draft.relations(id, field).filter((other) => this.#declared.has(pairOf(id, field, other)));
    return {
      _id: id,
      name: id,
      type: '',
      enabled: true,
      impact: keepDeclared('impact'),
      depends: keepDeclared('depends'),
      // Checked by `readDocument` when supplied.
      measurements: (element.measurements as string[] | undefined) ?? [],
      infos: (element.infos as Record<string, JsonValue> | undefined) ?? {},
      enable_history: histories?.enable_history ?? [],
      disable_history: histories?.disable_history ?? [],
    };
  }

  #put(ci: CiAction, entity: Entity): void {
    if ('element' in ci) {
      for (const field of relationFields) {
        const named = suppliedRelations(ci.element, field);
        if (!named) continue;
        const kept = new Set(named);
        for (const other of this.draft.relations(entity._id, field)) if (!kept.has(other)) this.#declared.delete(pairOf(entity._id, field, other));
        for (const other of named) this.#declared.set(pairOf(entity._id, field, other), { ci, field, other });
      }
    }
    this.draft.put(entity);
  }

  /** Relations CIs declared towards entities that exist neither in the store nor in this import. */
  #checkDangling(): void {
    const [first] = this.draft.danglingRelations();
    if (!first) return;
    const declared = this.#declared.get(pairOf(first.from, first.field, first.missing));
    if (declared) throw new ImportFailure(`${declared.ci.label}: ${declared.field} lists ${quote(declared.other)}, which does not exist and is not created by this import`);
    throw new ImportFailure(`entity ${quote(first.from)} lists ${quote(first.missing)} in its ${first.field}, which does not exist`);
  }
}

/**
 * Calls `apply` on each element of `list` in order, taking it out of the list first: the list ends empty. A plan's
 * million elements (and the parsed fields only they hold) become garbage as they are applied, while the entities they
 * make are allocated, instead of all staying alive until the commit.
 */
function releasing<T>(list: T[], apply: (item: T, position: number) => void): void {
  const slots = list as (T | undefined)[];
  for (let position = 0; position < slots.length; position++) {
    const item = slots[position] as T;
    slots[position] = undefined;
    apply(item, position);
  }
  list.length = 0;
}

/**
 * Applies a validated plan to a draft and returns what to commit; throws an ImportFailure at the first action that
 * cannot apply. The plan is consumed: its lists are emptied as their elements are applied.
 */
export function applyPlan(plan: ImportPlan, draft: GraphDraft): GraphChanges {
  return new PlanApplication(draft).run(plan);
}
