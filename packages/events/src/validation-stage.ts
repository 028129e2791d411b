import { eventProblem } from './event-validation.js';
import { PipelineOrder, entityIdOf, type PipelineStage } from './pipeline.js';

/**
 * Order 150: an event the event filter left invalid is dropped (and counted, as every drop); a valid one gets
 * its entity id again, since the filter may have changed the fields it is made of.
 */
export const validationStage: PipelineStage = {
  name: 'events.validation',
  order: PipelineOrder.validation,
  process(context) {
    const problem = eventProblem(context.event);
    if (problem) context.drop(`invalid after the event filter: ${problem.reason}`);
    else {
      // The id the event came with is kept when unchanged: it is already hashed for the maps later stages look it up in.
      const entityId = entityIdOf(context.event);
      if (entityId !== context.entityId) context.entityId = entityId;
    }
    // Synchronous: nothing returned, so the runner spends no microtask on it.
    return undefined;
  },
  // Pure: it writes nothing.
  dryRun(context) {
    validationStage.process(context);
    return Promise.resolve();
  },
};
