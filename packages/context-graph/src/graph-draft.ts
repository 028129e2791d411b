import type { Entity } from './entity.js';

export type RelationField = 'impact' | 'depends';

const opposite: Record<RelationField, RelationField> = { impact: 'depends', depends: 'impact' };

/**
 * An entity's relations on one side, in the order they were added: a list while short, a set past `setFrom` ids. Most
 * entities have one or a few relations a side, and a set costs about 160 bytes where a short list costs 40.
 */
type Relations = string[] | Set<string>;

const setFrom = 16;

interface DraftNode {
  /** Null while the entity does not exist: never did, or removed in this draft. Its relation arrays are stale: `impact` and `depends` below hold them. */
  entity: Entity | null;
  /** Made when the node first has a relation on that side (most nodes of a large import have relations on one side only). */
  impact: Relations | undefined;
  depends: Relations | undefined;
  /** The entity exists in the store (as loaded). */
  stored: boolean;
  /** Changed (or named by an action) in this draft: written back at commit. */
  touched: boolean;
}

/** What committing a draft writes. */
export interface GraphChanges {
  /** Entities that were not in the store. */
  created: Entity[];
  /** Entities written over their stored version. */
  replaced: Entity[];
  /** Ids of stored entities to delete. */
  deleted: string[];
}

/** A relation of `from` naming `missing`, an entity that does not exist. */
export interface DanglingRelation {
  from: string;
  field: RelationField;
  missing: string;
}

/**
 * An in-memory working copy of part of the context graph (the entities an operation may touch, loaded by
 * `EntityRepository.draft`). Every change keeps `impact` and `depends` reciprocal on both ends; nothing reaches
 * the store until the draft's changes are committed in one batch, so a draft that is dropped changes nothing.
 *
 * Relations may name an entity that does not exist yet (it may be created later in the same draft): the
 * draft keeps them, and `danglingRelations` lists those still naming a missing entity.
 */
export class GraphDraft {
  readonly #nodes = new Map<string, DraftNode>();
  /** Ids the draft may be asked about that name no stored entity (nodes are made for them when first needed). */
  readonly #absent: Pick<ReadonlySet<string>, 'has'>;
  /** Ids a relation was added towards while they did not exist. */
  readonly #namedWhileMissing = new Set<string>();

  /** `entities` as stored (the draft takes them over); `absent`: ids it may also be asked about, those not among `entities` known not to exist. */
  constructor(entities: Iterable<Entity>, absent: Pick<ReadonlySet<string>, 'has'>) {
    for (const entity of entities) {
      this.#nodes.set(entity._id, { entity, impact: relationsOf(entity.impact), depends: relationsOf(entity.depends), stored: true, touched: false });
    }
    this.#absent = absent;
  }

  #node(id: string): DraftNode {
    let node = this.#nodes.get(id);
    if (!node) {
      if (!this.#absent.has(id)) throw new Error(`entity ${JSON.stringify(id)} was not loaded into this draft`);
      node = { entity: null, impact: undefined, depends: undefined, stored: false, touched: false };
      this.#nodes.set(id, node);
    }
    return node;
  }

  exists(id: string): boolean {
    return this.#node(id).entity !== null;
  }

  /** Whether the entity was in the store when the draft was loaded (whatever the draft did to it since). */
  stored(id: string): boolean {
    return this.#node(id).stored;
  }

  /** The entity as it stands in the draft; the draft's own object: change it through `put`. */
  get(id: string): Readonly<Entity> | undefined {
    const node = this.#node(id);
    return node.entity ? current(node.entity, node) : undefined;
  }

  /**
   * An entity's enable and disable histories as they stand, or undefined when it does not exist: what a replacement
   * keeps, read without the copies of its relations `get` makes.
   */
  histories(id: string): Readonly<Pick<Entity, 'enable_history' | 'disable_history'>> | undefined {
    return this.#node(id).entity ?? undefined;
  }

  /** An entity's relations; for a missing entity, those other entities gave it in this draft. */
  relations(id: string, field: RelationField): string[] {
    return [...(this.#node(id)[field] ?? [])];
  }

  /** Whether `from` lists `to` in its `impact` (and so `to` lists `from` in its `depends`). */
  impacts(from: string, to: string): boolean {
    return has(this.#node(from).impact, to);
  }

  /**
   * Creates or replaces an entity (the draft takes the object over). Its relations become exactly
   * `entity.impact` and `entity.depends`: the entities added there list it back, those dropped forget it.
   */
  put(entity: Entity): void {
    const node = this.#node(entity._id);
    node.entity = entity;
    node.touched = true;
    this.#setRelations(entity._id, node, 'impact', entity.impact);
    this.#setRelations(entity._id, node, 'depends', entity.depends);
  }

  /** Adds the link `from` impacts `to`; false when it was already there. Both ends count as touched. */
  link(from: string, to: string): boolean {
    const node = this.#node(from);
    const counterpart = this.#node(to);
    node.touched = true;
    counterpart.touched = true;
    return this.#relateNodes(from, node, 'impact', to, counterpart);
  }

  /** Removes the link `from` impacts `to`; false when it was not there. Both ends count as touched. */
  unlink(from: string, to: string): boolean {
    const node = this.#node(from);
    const counterpart = this.#node(to);
    node.touched = true;
    counterpart.touched = true;
    return this.#unrelateNodes(from, node, 'impact', to, counterpart);
  }

  /** Removes an entity; the entities it was linked with forget it. */
  remove(id: string): void {
    const node = this.#node(id);
    for (const field of ['impact', 'depends'] as const) for (const other of [...(node[field] ?? [])]) this.#unrelateNodes(id, node, field, other, this.#node(other));
    node.entity = null;
    node.touched = true;
  }

  /** Relations naming an entity that does not exist (was never created, or was removed after being named). */
  danglingRelations(): DanglingRelation[] {
    const dangling: DanglingRelation[] = [];
    for (const missing of this.#namedWhileMissing) {
      const node = this.#node(missing);
      if (node.entity !== null) continue;
      for (const from of node.depends ?? []) dangling.push({ from, field: 'impact', missing });
      for (const from of node.impact ?? []) dangling.push({ from, field: 'depends', missing });
    }
    return dangling;
  }

  /**
   * What to commit. The entities are handed over with the draft's relation lists (not copies of them: a million
   * entities made two million lists for nothing): the draft must not change afterwards.
   */
  changes(): GraphChanges {
    const changes: GraphChanges = { created: [], replaced: [], deleted: [] };
    for (const [id, node] of this.#nodes) {
      if (!node.touched) continue;
      if (node.entity) (node.stored ? changes.replaced : changes.created).push(handedOver(node.entity, node));
      else if (node.stored) changes.deleted.push(id);
    }
    return changes;
  }

  #setRelations(id: string, node: DraftNode, field: RelationField, wanted: string[]): void {
    const existing = node[field];
    if (existing === undefined && wanted.length === 0) return;
    const next = relationsOf(wanted);
    for (const other of [...(existing ?? [])]) if (!has(next, other)) this.#unrelateNodes(id, node, field, other, this.#node(other));
    for (const other of next ?? []) if (!has(node[field], other)) this.#relateNodes(id, node, field, other, this.#node(other));
    // Keep the order the caller gave.
    node[field] = next;
  }

  /** Relates two nodes (each looked up once by the caller: a million-entry map is slow to look into). */
  #relateNodes(id: string, node: DraftNode, field: RelationField, other: string, counterpart: DraftNode): boolean {
    if (has(node[field], other)) return false;
    node[field] = added(node[field], other);
    counterpart[opposite[field]] = added(counterpart[opposite[field]], id);
    node.touched = true;
    counterpart.touched = true;
    if (counterpart.entity === null) this.#namedWhileMissing.add(other);
    return true;
  }

  #unrelateNodes(id: string, node: DraftNode, field: RelationField, other: string, counterpart: DraftNode): boolean {
    if (!removeRelation(node, field, other)) return false;
    removeRelation(counterpart, opposite[field], id);
    node.touched = true;
    counterpart.touched = true;
    return true;
  }
}

/** The node's entity with its relation arrays brought up to date. */
function current(entity: Entity, node: DraftNode): Entity {
  entity.impact = node.impact ? [...node.impact] : [];
  entity.depends = node.depends ? [...node.depends] : [];
  return entity;
}

/** The node's entity with the node's relations as its lists, taken over. */
function handedOver(entity: Entity, node: DraftNode): Entity {
  entity.impact = listOf(node.impact, entity.impact);
  entity.depends = listOf(node.depends, entity.depends);
  return entity;
}

/** The relations as a list; none: the entity's stale list when empty (its own), rather than a new one. */
const listOf = (relations: Relations | undefined, stale: string[]): string[] => {
  if (relations === undefined) return stale.length === 0 ? stale : [];
  return Array.isArray(relations) ? relations : [...relations];
};

/**
 * Relations holding `ids` once each, or undefined for none: a short list without repeats is taken over (the draft owns
 * the entities it is given, and their lists are stale once read), not copied.
 */
function relationsOf(ids: string[]): Relations | undefined {
  if (ids.length === 0) return undefined;
  if (ids.length > setFrom) return new Set(ids);
  const once = (id: string, index: number) => ids.indexOf(id) === index;
  return ids.every(once) ? ids : ids.filter(once);
}

function has(relations: Relations | undefined, id: string): boolean {
  if (relations === undefined) return false;
  return Array.isArray(relations) ? relations.includes(id) : relations.has(id);
}

/** `relations` with `id` added last (it is not there yet): the same list or set, or a set once the list is long. */
function added(relations: Relations | undefined, id: string): Relations {
  if (relations === undefined) return [id];
  if (!Array.isArray(relations)) return relations.add(id);
  if (relations.length < setFrom) {
    relations.push(id);
    return relations;
  }
  return new Set(relations).add(id);
}

/** Removes `id` from a node's relations on one side; false when it was not there. An emptied side is dropped. */
function removeRelation(node: DraftNode, field: RelationField, id: string): boolean {
  const relations = node[field];
  if (relations === undefined) return false;
  if (Array.isArray(relations)) {
    const index = relations.indexOf(id);
    if (index < 0) return false;
    relations.splice(index, 1);
  } else if (!relations.delete(id)) return false;
  if ((Array.isArray(relations) ? relations.length : relations.size) === 0) node[field] = undefined;
  return true;
}
