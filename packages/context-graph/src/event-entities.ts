import { inject, injectable } from 'tsyringe';
import {
  injectRef,
  kernelRefs,
  hasCode,
  ErrorCodes,
  type BatchOperation,
  type Clock,
  type EventBus,
  type JsonValue,
  type Logger,
  type FeatureStore,
} from '@vigie/kernel';
import { appendToList, cloneJson, memberSet } from '@vigie/json';
import { entitiesChangedEvent } from './refs.js';
import type { VigieEvent } from '@vigie/events';
import type { Entity, EntityType } from './entity.js';
import { EntityRepository, entityCollection } from './entity-repository.js';

/** Entities kept in memory at most; the least recently read ones go first. */
const cacheLimit = 200_000;
/** A created entity another node stored meanwhile: the writes are worked out again, at most this many times. */
const duplicateRetries = 3;

/** Link lists at least this long are checked through a set of their members rather than read through. */
const longList = 64;

/** One entity an event names, and how the event's links attach it. */
interface Named {
  id: string;
  type: EntityType;
  name: string;
  extra?: Record<string, string>;
}

/** The entities an event names (REFERENCE §6.2): its connector, component and resource, as the source type has them. */
function namedEntities(event: VigieEvent): { connector: Named; component?: Named; resource?: Named } | undefined {
  const connector: Named = { id: `${event.connector}/${event.connector_name}`, type: 'connector', name: event.connector_name };
  if (event.source_type === 'connector') return { connector };
  if (event.source_type !== 'component' && event.source_type !== 'resource') return undefined;
  if (typeof event.component !== 'string' || event.component === '') return undefined;
  const component: Named = { id: event.component, type: 'component', name: event.component };
  if (event.source_type === 'component') return { connector, component };
  if (typeof event.resource !== 'string' || event.resource === '') return undefined;
  return { connector, component, resource: { id: `${event.resource}/${event.component}`, type: 'resource', name: event.resource, extra: { component: event.component } } };
}

/** The entities an event names, connector first. */
function namedList(named: NonNullable<ReturnType<typeof namedEntities>>): Named[] {
  return [named.connector, named.component, named.resource].filter((n): n is Named => n !== undefined);
}

/** What `#ensured` holds for an event: the ids of the entities it names. */
function ensuredKey(all: readonly Named[]): string {
  return all.map((n) => n.id).join('\u0000');
}

/** An entity an event names, as the pipeline creates it (its links are added with the others). */
function newEntity(n: Named, now: number): Entity {
  return { _id: n.id, name: n.name, type: n.type, impact: [], depends: [], enabled: true, enable_history: [now], disable_history: [], measurements: [], infos: {}, ...n.extra };
}

/** `from` impacts `to` pairs an event implies: resource ⇒ component, connector ⇒ resource, component ⇒ connector. */
function impactLinks(named: NonNullable<ReturnType<typeof namedEntities>>): [string, string][] {
  const { connector, component, resource } = named;
  const links: [string, string][] = [];
  if (resource && component) links.push([resource.id, component.id], [connector.id, resource.id]);
  if (component) links.push([component.id, connector.id]);
  return links;
}

/** A creation an event waits for; creations waiting together are written in one batch. */
interface PendingCreation {
  all: Named[];
  links: [string, string][];
  key: string;
  done(): void;
  failed(err: unknown): void;
}

/**
 * The context graph as events see it: the entities an event names are created with their links the first time,
 * then read from a cache. Existing entities keep their infos and links (only missing links are added). The
 * cache forgets what `context-graph.entities-changed` announces (imports, other writers), so it never serves a stale entity
 * this process knows changed.
 */
@injectable()
export class EventEntities {
  readonly #cache = new Map<string, Entity | null>();
  /** Events whose entities and links are known to be in place, by the ids they name. */
  readonly #ensured = new Set<string>();
  /** The keys of `#ensured` each entity id is part of. */
  readonly #ensuredBy = new Map<string, Set<string>>();
  /** Graph writes from events one at a time: two lanes adding links to one component must not overwrite each other. */
  #writes: Promise<unknown> = Promise.resolve();
  /** Creations waiting for the next write: those that arrive while one is written share the next batch. */
  #creations: PendingCreation[] = [];
  /** `context-graph.entities-changed` payloads this object emitted: its own writes only add, so what is ensured stays so. */
  readonly #ownAnnouncements = new WeakSet<object>();
  /** How many `context-graph.entities-changed` of other writers (imports, routes, other nodes) this object heard. */
  #foreignChanges = 0;
  #subscribed = false;

  constructor(
    @inject(EntityRepository) private readonly entities: EntityRepository,
    @injectRef(kernelRefs.eventBus) private readonly eventBus: EventBus,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.store) private readonly store: FeatureStore,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** Listens to `context-graph.entities-changed` to keep the cache true. */
  subscribe(): void {
    if (this.#subscribed) return;
    this.#subscribed = true;
    this.eventBus.on(entitiesChangedEvent, (payload) => {
      const own = this.#ownAnnouncements.has(payload);
      if (!own) this.#foreignChanges++;
      for (const id of payload.ids) {
        this.#cache.delete(id);
        if (own) continue;
        // Another writer may have removed links or entities: events naming them check again.
        for (const key of this.#ensuredBy.get(id) ?? []) this.#ensured.delete(key);
        this.#ensuredBy.delete(id);
      }
    });
  }

  /** The entity `id` (a copy the caller may change), from the cache when it is there. */
  async get(id: string): Promise<Entity | null> {
    const cached = this.#cache.get(id);
    if (cached !== undefined) return cached && cloneJson(cached);
    const entity = await this.entities.get(id);
    this.#remember(id, entity);
    return entity && cloneJson(entity);
  }

  /** The entity `id` as cached, not to be changed (pattern matching reads it for every event). */
  async peek(id: string): Promise<Readonly<Entity> | null> {
    const cached = this.#cache.get(id);
    if (cached !== undefined) return cached;
    const entity = await this.entities.get(id);
    this.#remember(id, entity);
    return entity;
  }

  /**
   * Makes sure the entities `event` names exist with their links, and returns the event's own entity (`entityId`) as
   * cached, not to be changed (as `peek`: every event reads it, a copy each time showed in profiles): null when the
   * event names none the graph models (meta-alarm, service) and none exists under that id.
   */
  async ensure(event: VigieEvent, entityId: string): Promise<Readonly<Entity> | null> {
    const named = namedEntities(event);
    if (!named) return this.peek(entityId);
    const all = namedList(named);
    const key = ensuredKey(all);
    if (!this.#ensured.has(key)) await this.#create(all, impactLinks(named), key);
    return this.peek(entityId);
  }

  /**
   * What `ensure` answers, when memory alone can tell (the entities the event names are in place and its own is
   * cached), without a promise: nearly every event of a steady stream. Undefined when `ensure` must run.
   */
  ensuredNow(event: VigieEvent, entityId: string): Readonly<Entity> | null | undefined {
    const named = namedEntities(event);
    if (named && !this.#ensured.has(ensuredKey(namedList(named)))) return undefined;
    return this.#cache.get(entityId);
  }

  /** The entity `id` as `peek` answers it when it is cached (null: known not to exist), without a promise; else undefined. */
  cached(id: string): Readonly<Entity> | null | undefined {
    return this.#cache.get(id);
  }

  /** Ids of the entities an event names (those `ensure` creates when missing). */
  wouldCreate(event: VigieEvent): string[] {
    const named = namedEntities(event);
    return named ? namedList(named).map((n) => n.id) : [];
  }

  /** The entity `ensure` would create for `id`, without its links (dry runs); null when the event does not name it. */
  draftOf(event: VigieEvent, id: string): Entity | null {
    const named = namedEntities(event);
    const n = named && [named.connector, named.component, named.resource].find((candidate) => candidate?.id === id);
    return n ? newEntity(n, this.clock.nowSec()) : null;
  }

  /** Sets infos on an entity that exists (event-filter actions); announced like every graph change. */
  async setInfos(id: string, infos: Record<string, JsonValue>): Promise<Entity | null> {
    return this.#serialised(async () => {
      const entity = await this.entities.get(id);
      if (!entity) return null;
      const changed = Object.entries(infos).some(([key, value]) => JSON.stringify(entity.infos[key]) !== JSON.stringify(value));
      if (changed) {
        entity.infos = { ...entity.infos, ...infos };
        await this.store.batch([{ op: 'update', collection: entityCollection.name, filter: { _id: id }, update: { $set: { infos: entity.infos } } }]);
        await this.#announce([id]);
      }
      this.#remember(id, entity);
      return cloneJson(entity);
    });
  }

  #serialised<T>(write: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(write);
    this.#writes = run.catch(() => undefined);
    return run;
  }

  /** Waits for the creation of `all` with `links`, written with the other creations waiting meanwhile. */
  #create(all: Named[], links: [string, string][], key: string): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.#creations.push({ all, links, key, done, failed });
      if (this.#creations.length === 1) void this.#serialised(() => this.#writeCreations());
    });
  }

  /**
   * Inserts the missing entities with their links and adds the missing links to existing ones with `$addToSet`, in
   * one atomic batch for every creation waiting: a connector linked to thousands of resources is never read or
   * rewritten whole for each of them.
   */
  async #writeCreations(): Promise<void> {
    const creations = this.#creations.filter((creation) => {
      if (!this.#ensured.has(creation.key)) return true;
      creation.done();
      return false;
    });
    this.#creations = [];
    if (creations.length === 0) return;
    try {
      for (let attempt = 1; ; attempt++) {
        const foreignChanges = this.#foreignChanges;
        const { operations, written } = await this.#operations(creations);
        try {
          if (operations.length > 0) {
            await this.store.batch(operations);
            await this.#announce([...written.keys()]);
            // The cache keeps what was written (a connector's list of thousands is not read again for each batch),
            // unless another writer changed entities meanwhile: then what this node read may not be what it extended.
            if (this.#foreignChanges === foreignChanges) for (const [id, version] of written) this.#remember(id, version());
          }
          break;
        } catch (err) {
          if (!hasCode(err, ErrorCodes.DuplicateKey) || attempt >= duplicateRetries) throw err;
          // Another node created some of them meanwhile: read them again.
          for (const creation of creations) for (const { id } of creation.all) this.#cache.delete(id);
        }
      }
    } catch (err) {
      for (const creation of creations) creation.failed(err);
      return;
    }
    for (const { all, key, done } of creations) {
      for (const { id } of all) {
        let keys = this.#ensuredBy.get(id);
        if (!keys) this.#ensuredBy.set(id, (keys = new Set()));
        keys.add(key);
      }
      this.#ensured.add(key);
      done();
    }
  }

  /**
   * The batch that writes `creations`, and each written entity as the batch leaves it (made once the batch
   * committed): the entities it read, with the links it adds.
   */
  async #operations(creations: readonly PendingCreation[]): Promise<{ operations: BatchOperation[]; written: Map<string, () => Entity> }> {
    const now = this.clock.nowSec();
    const named = new Map<string, Named>();
    for (const creation of creations) for (const n of creation.all) named.set(n.id, n);
    const existing = new Map<string, Readonly<Entity>>();
    for (const id of named.keys()) {
      const entity = await this.peek(id);
      if (entity) existing.set(id, entity);
    }
    const created = new Map<string, Entity>();
    for (const n of named.values()) {
      if (existing.has(n.id)) continue;
      created.set(n.id, newEntity(n, now));
    }
    // The links existing entities hold among those the creations name. A connector's may number thousands: a long
    // list is checked through the set of its members (kept with the list), a short one run through once.
    const wanted = new Map<string, { links: readonly string[]; names: Set<string> }>();
    const want = (id: string, field: 'impact' | 'depends', other: string): void => {
      const entity = created.has(id) ? undefined : existing.get(id);
      if (!entity) return;
      const key = `${field} ${id}`;
      let entry = wanted.get(key);
      if (!entry) wanted.set(key, (entry = { links: entity[field], names: new Set() }));
      entry.names.add(other);
    };
    for (const creation of creations) {
      for (const [from, to] of creation.links) {
        want(from, 'impact', to);
        want(to, 'depends', from);
      }
    }
    const held = new Map<string, Set<string>>();
    for (const [key, { links, names }] of wanted) {
      const found = new Set<string>();
      if (links.length >= longList) {
        const members = memberSet(links);
        for (const name of names) if (members.has(name)) found.add(name);
      } else {
        for (const link of links) {
          if (names.has(link)) found.add(link);
          if (found.size === names.size) break;
        }
      }
      held.set(key, found);
    }
    const holds = (entity: Readonly<Entity>, field: 'impact' | 'depends', other: string): boolean => held.get(`${field} ${entity._id}`)?.has(other) === true;
    const additions = new Map<string, { impact: Set<string>; depends: Set<string> }>();
    const add = (id: string, field: 'impact' | 'depends', other: string): void => {
      const target = created.get(id);
      if (target) {
        if (!target[field].includes(other)) target[field].push(other);
        return;
      }
      const entity = existing.get(id);
      if (!entity || holds(entity, field, other)) return;
      let entry = additions.get(id);
      if (!entry) additions.set(id, (entry = { impact: new Set(), depends: new Set() }));
      entry[field].add(other);
    };
    for (const creation of creations) {
      for (const [from, to] of creation.links) {
        add(from, 'impact', to);
        add(to, 'depends', from);
      }
    }
    const operations: BatchOperation[] = [...created.values()].map((doc) => ({ op: 'insert', collection: entityCollection.name, doc }));
    const written = new Map<string, () => Entity>([...created].map(([id, doc]) => [id, () => doc]));
    for (const [id, { impact, depends }] of additions) {
      const addToSet: Record<string, unknown> = {};
      if (impact.size > 0) addToSet.impact = { $each: [...impact] };
      if (depends.size > 0) addToSet.depends = { $each: [...depends] };
      operations.push({ op: 'update', collection: entityCollection.name, filter: { _id: id }, update: { $addToSet: addToSet } });
      const entity = existing.get(id) as Readonly<Entity>;
      written.set(id, () => ({
        ...entity,
        impact: impact.size > 0 ? appendToList(entity.impact, impact) : entity.impact,
        depends: depends.size > 0 ? appendToList(entity.depends, depends) : entity.depends,
      }));
    }
    return { operations, written };
  }

  /** The cache forgets the written entities, and `context-graph.entities-changed` tells everyone else. */
  async #announce(ids: string[]): Promise<void> {
    for (const id of ids) this.#cache.delete(id);
    if (ids.length === 0) return;
    const payload = { ids };
    this.#ownAnnouncements.add(payload);
    try {
      await this.eventBus.emit(entitiesChangedEvent, payload);
    } catch (err) {
      this.logger.error({ err }, 'a listener of context-graph.entities-changed failed');
    }
  }

  #remember(id: string, entity: Entity | null): void {
    this.#cache.delete(id);
    this.#cache.set(id, entity);
    if (this.#cache.size > cacheLimit) {
      const oldest = this.#cache.keys().next().value as string;
      this.#cache.delete(oldest);
    }
  }
}
