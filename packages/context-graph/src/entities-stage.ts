import { PipelineOrder, type PipelineStage } from '@vigie/events';
import type { EventEntities } from './event-entities.js';

/**
 * Order 200: the entities the event names exist with their links (REFERENCE §6.2) and `context.entity` is the
 * event's own entity. A disabled entity stops the event here: it gets no alarm.
 */
export function entitiesStage(entities: EventEntities): PipelineStage {
  return {
    name: 'context-graph.entities',
    order: PipelineOrder.entities,
    async process(context) {
      const entity = await entities.ensure(context.event, context.entityId);
      if (!entity) {
        context.trace('context-graph.entities', 'the event names no entity of the context graph');
        return;
      }
      context.entity = entity;
      context.trace('context-graph.entities', 'entity read', { entity });
      if (entity.enabled === false) context.drop(`the entity ${entity._id} is disabled`);
    },
  };
}
