import { injectable } from 'tsyringe';
import { assertSafeFilter } from '@vigie/filter-safety';
import { collectionRef, injectRef, kernelRefs, type BatchOperation, type Collection, type EventBus, type Filter, type Logger, type Projection, type SortSpec, type FeatureStore } from '@vigie/kernel';
import { toEntity, toReplacedEntity, type Entity } from './entity.js';
import { GraphDraft, type GraphChanges } from './graph-draft.js';
import { entitiesChangedEvent } from './refs.js';

export const entityCollection = collectionRef('default_entities');

/** What a draft reads of an entity its caller replaces whole: what a replacement keeps or must undo. */
const replacedFields: Projection = { impact: 1, depends: 1, enable_history: 1, disable_history: 1 };

export interface EntityQuery {
  /** A MongoDB-style filter; checked with `assertSafeFilter` (only safe operators, bounded size). */
  filter?: Filter;
  /** `{_id: 1}` by default; `_id` always breaks ties. */
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

/** Store access for `default_entities`, and the only writer of committed graph changes. */
@injectable()
export class EntityRepository {
  readonly #entities: Collection;

  constructor(
    @injectRef(kernelRefs.store) private readonly store: FeatureStore,
    @injectRef(kernelRefs.eventBus) private readonly eventBus: EventBus,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {
    this.#entities = store.collection(entityCollection);
  }

  async get(id: string): Promise<Entity | null> {
    const doc = await this.#entities.findOne({ _id: id });
    return doc ? toEntity(doc) : null;
  }

  async find(query: EntityQuery = {}): Promise<Entity[]> {
    const docs = await this.#entities.find(assertSafeFilter(query.filter ?? {}), {
      sort: { ...(query.sort ?? {}), _id: query.sort?._id ?? 1 },
      skip: query.skip,
      limit: query.limit,
    });
    return docs.map(toEntity);
  }

  count(filter: Filter = {}): Promise<number> {
    return this.#entities.count(assertSafeFilter(filter));
  }

  /** The entities among `ids` that exist, by id. */
  async getMany(ids: Iterable<string>): Promise<Map<string, Entity>> {
    const found = new Map<string, Entity>();
    for (const entity of await this.#existing(ids)) found.set(entity._id, entity);
    return found;
  }

  /** The entities among `ids` that exist. */
  async #existing(ids: Iterable<string>): Promise<Entity[]> {
    // A set (a draft's million ids) is not deduplicated again.
    const docs = await this.#entities.find({ _id: { $in: ids instanceof Set ? [...(ids as Set<string>)] : [...new Set(ids)] } });
    return docs.map(toEntity);
  }

  /**
   * A draft holding the entities `ids` name and every entity they are linked with: all a change to those
   * entities can touch while keeping the links reciprocal. A set of ids is kept as given (not copied: an import's
   * names a million), so it must not change afterwards. Of the entities among `replaced`, which the caller replaces
   * whole (`put`) before it reads or changes anything else of them, only the relations and the histories are read:
   * their other fields in the draft are the model's defaults until replaced.
   */
  async draft(ids: Iterable<string>, replaced: ReadonlySet<string> = new Set()): Promise<GraphDraft> {
    const named: ReadonlySet<string> = ids instanceof Set ? (ids as Set<string>) : new Set(ids);
    // Read as lists, not maps by id: the draft makes its own.
    let found: Entity[];
    if (replaced.size === 0) found = await this.#existing(named);
    else {
      const whole: string[] = [];
      const relationsOnly: string[] = [];
      for (const id of named) (replaced.has(id) ? relationsOnly : whole).push(id);
      found = await this.#existing(whole);
      // Only what a replacement keeps or undoes is read (ids of a set: not repeated).
      const docs = await this.#entities.find({ _id: { $in: relationsOnly } }, { projection: replacedFields });
      for (const doc of docs) found.push(toReplacedEntity(doc));
    }
    const linked = new Set<string>();
    for (const entity of found) {
      for (const id of entity.impact) if (!named.has(id)) linked.add(id);
      for (const id of entity.depends) if (!named.has(id)) linked.add(id);
    }
    if (linked.size === 0) return new GraphDraft(found, named);
    for (const entity of await this.#existing(linked)) found.push(entity);
    return new GraphDraft(found, { has: (id) => named.has(id) || linked.has(id) });
  }

  /**
   * Adds and removes dependencies of the entity `id`, with the reciprocal `impact` of the others, and sets `fields` on
   * it, in one atomic batch of `$addToSet` / `$pullAll` updates: links other writers add meanwhile are kept (a draft
   * would write whole entities back). Ids of entities that do not exist are added as given (no impact is written for
   * them). Announced with `context-graph.entities-changed`.
   */
  async updateDepends(id: string, change: { add: readonly string[]; remove: readonly string[]; fields?: Record<string, unknown> }): Promise<void> {
    const add = [...new Set(change.add)].filter((other) => other !== id);
    const remove = [...new Set(change.remove)].filter((other) => other !== id && !add.includes(other));
    const operations: BatchOperation[] = [];
    const own: Record<string, unknown> = {};
    if (add.length > 0) own.$addToSet = { depends: { $each: add } };
    if (change.fields && Object.keys(change.fields).length > 0) own.$set = change.fields;
    if (Object.keys(own).length > 0) operations.push({ op: 'update', collection: entityCollection.name, filter: { _id: id }, update: own });
    if (remove.length > 0) {
      operations.push({ op: 'update', collection: entityCollection.name, filter: { _id: id }, update: { $pullAll: { depends: remove } } });
      operations.push({ op: 'update', collection: entityCollection.name, filter: { _id: { $in: remove } }, update: { $pull: { impact: id } }, multi: true });
    }
    if (add.length > 0) operations.push({ op: 'update', collection: entityCollection.name, filter: { _id: { $in: add } }, update: { $addToSet: { impact: id } }, multi: true });
    if (operations.length === 0) return;
    await this.store.batch(operations);
    try {
      await this.eventBus.emit(entitiesChangedEvent, { ids: [id, ...add, ...remove] });
    } catch (err) {
      this.logger.error({ err }, 'a listener of context-graph.entities-changed failed');
    }
  }

  /**
   * Writes a draft's changes, with `alongside` (e.g. a status record), in one atomic batch, then announces the
   * changed ids with `context-graph.entities-changed`. A created entity that another writer stored meanwhile makes the batch
   * fail with `DUPLICATE_KEY`, and nothing is written. The entities of `changes` are handed over to the store (kept
   * as they are, not copied: an import's million): the caller must not use them afterwards.
   */
  async commit(changes: GraphChanges, alongside: readonly BatchOperation[] = []): Promise<void> {
    const operations: BatchOperation[] = [];
    const replacedIds = changes.replaced.map((entity) => entity._id);
    for (const entity of changes.replaced) operations.push({ op: 'replace', collection: entityCollection.name, filter: { _id: entity._id }, doc: entity, handOver: true });
    if (changes.deleted.length > 0) operations.push({ op: 'delete', collection: entityCollection.name, filter: { _id: { $in: [...changes.deleted] } }, multi: true });
    for (const entity of changes.created) operations.push({ op: 'insert', collection: entityCollection.name, doc: entity, handOver: true });
    operations.push(...alongside);
    await this.store.batch(operations);

    const ids = [...replacedIds, ...changes.created.map((entity) => entity._id), ...changes.deleted];
    if (ids.length === 0) return;
    try {
      await this.eventBus.emit(entitiesChangedEvent, { ids });
    } catch (err) {
      // The change is committed; a failing listener is the listener's problem, not the writer's.
      this.logger.error({ err }, 'a listener of context-graph.entities-changed failed');
    }
  }
}
