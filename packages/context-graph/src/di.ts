import { defineBridge, provide } from '@vigie/kernel';
import { EntityRepository } from './entity-repository.js';
import { EventEntities } from './event-entities.js';
import { entityRepositoryRef, eventEntitiesRef } from './refs.js';

/** The context graph's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const contextGraphBridge = defineBridge({
  singletons: [EntityRepository, EventEntities],
  exports: [provide(entityRepositoryRef, EntityRepository), provide(eventEntitiesRef, EventEntities)],
});
