import { eventRef, serviceRef } from '@vigie/kernel';
import type { EntityInfosSearch } from './entity-infos-search.js';
import type { EntityReader } from './entity-reader.js';
import type { EntityRepository } from './entity-repository.js';
import type { EventEntities } from './event-entities.js';

/** Reads, drafts of changes and atomic commits of the entities (announced by `entitiesChangedEvent`). */
export const entityRepositoryRef = serviceRef<EntityRepository>('context-graph.entityRepository');

/** Reads of the stored entities with the caller's own filters (selections by pbehaviors, watchers). */
export const entityReaderRef = serviceRef<EntityReader>('context-graph.entityReader');

/** Which entities' infos hold a text (the alarm list's search), from texts kept in memory. */
export const entityInfosSearchRef = serviceRef<EntityInfosSearch>('context-graph.entityInfosSearch');

/** The cached graph as events see it (the pipeline stages of the event filter and the context graph). */
export const eventEntitiesRef = serviceRef<EventEntities>('context-graph.eventEntities');

/** Entities were created, changed or deleted (imports, event processing, the API): their ids. */
export const entitiesChangedEvent = eventRef<{ ids: readonly string[] }>('context-graph.entities-changed');
