import { defineBridge } from '@vigie/kernel';
import { EntityRepository } from './entity-repository.js';
import { EventEntities } from './event-entities.js';

/** The context graph's class graph (tsyringe) and what awilix sees of it. */
export const contextGraphBridge = defineBridge({
  singletons: [EntityRepository, EventEntities],
  exports: { entityRepository: EntityRepository, eventEntities: EventEntities },
});
