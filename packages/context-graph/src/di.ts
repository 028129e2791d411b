import { defineBridge, provide } from '@vigie/kernel';
import { EntityInfosSearch } from './entity-infos-search.js';
import { EntityReader } from './entity-reader.js';
import { EntityRepository } from './entity-repository.js';
import { EventEntities } from './event-entities.js';
import { entityInfosSearchRef, entityReaderRef, entityRepositoryRef, eventEntitiesRef } from './refs.js';

/** The context graph's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const contextGraphBridge = defineBridge({
  singletons: [EntityRepository, EntityReader, EventEntities, EntityInfosSearch],
  exports: [provide(entityRepositoryRef, EntityRepository), provide(entityReaderRef, EntityReader), provide(eventEntitiesRef, EventEntities), provide(entityInfosSearchRef, EntityInfosSearch)],
});
