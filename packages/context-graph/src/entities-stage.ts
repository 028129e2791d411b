import { PipelineOrder, type PipelineStage } from '@vigie/events';
import type { Entity } from './entity.js';
import type { EventEntities } from './event-entities.js';

/**
 * Order 200: the entities the event names exist with their links (REFERENCE §6.2) and `context.entity` is the
 * event's own entity. A disabled entity stops the event here: it gets no alarm.
 */
export function entitiesStage(entities: EventEntities): PipelineStage {
  return {
    name: 'context-graph.entities',
    order: PipelineOrder.entities,
    process(context) {
      const enter = (entity: Readonly<Entity> | null): void => {
        if (!entity) {
          context.trace('context-graph.entities', 'the event names no entity of the context graph');
          return;
        }
        context.entity = entity;
        context.trace('context-graph.entities', 'entity read', { entity });
        if (entity.enabled === false) context.drop(`the entity ${entity._id} is disabled`);
      };
      // Entities in place and cached, as for nearly every event: synchronously, so the runner spends no promise on it.
      const known = entities.ensuredNow(context.event, context.entityId);
      if (known !== undefined) return enter(known);
      return entities.ensure(context.event, context.entityId).then(enter);
    },
    async dryRun(context) {
      const named = entities.wouldCreate(context.event);
      const missing: string[] = [];
      for (const id of named) if (!(await entities.peek(id))) missing.push(id);
      if (missing.length > 0) context.would('create entities', { ids: missing });
      const entity = (await entities.peek(context.entityId)) ?? (named.includes(context.entityId) ? entities.draftOf(context.event, context.entityId) : null);
      if (!entity) {
        context.would('find no entity: the event names none the graph models');
        return;
      }
      context.entity = entity as typeof context.entity;
      if (!missing.includes(entity._id)) context.would('find the entity', { entity: entity._id });
      if (entity.enabled === false) context.drop(`the entity ${entity._id} is disabled`);
    },
  };
}
