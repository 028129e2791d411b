import { defineBridge, provide } from '@vigie/kernel';
import { EntityReader } from './entity-reader.js';
import { EntityRepository } from './entity-repository.js';
import { EventEntities } from './event-entities.js';
import { entityReaderRef, entityRepositoryRef, eventEntitiesRef } from './refs.js';

/** The context graph's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const contextGraphBridge = defineBridge({
  singletons: [EntityRepository, EntityReader, EventEntities],
  exports: [provide(entityRepositoryRef, EntityRepository), provide(entityReaderRef, EntityReader), provide(eventEntitiesRef, EventEntities)],
});
