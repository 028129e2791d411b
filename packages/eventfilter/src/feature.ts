import { defineFeature } from '@vigie/kernel';
import { eventEntitiesRef } from '@vigie/context-graph';
import { pipelineStagesPoint } from '@vigie/events';
import { eventFilterBridge } from './di.js';
import { ruleErrors } from './errors.js';
import { eventFilterStage } from './event-filter-stage.js';
import { EventFilterRules } from './event-filter-rules.js';
import { bulkEventFilterRoutes, eventFilterRoutes } from './routes.js';
import { ruleCollection } from './rule-repository.js';

/**
 * Event filter: the rules the event pipeline applies to every incoming event, by priority — enrich it, stop the
 * rules (`break`) or drop it (REFERENCE §5.2). The routes keep them in `eventfilter`; the pipeline stage (order 100)
 * applies them, read again after every write through any node sharing the store.
 */
export const eventFilterFeature = defineFeature({
  id: 'eventfilter',
  kernel: '^0.1.0',
  dependsOn: ['events', 'context-graph'],
  register(f) {
    f.use(eventFilterBridge);
    f.collection(ruleCollection);
    f.errors(ruleErrors);
    for (const route of [...eventFilterRoutes, ...bulkEventFilterRoutes]) f.route(route);
    f.extend(pipelineStagesPoint, (c) => eventFilterStage(c.resolve(EventFilterRules), c.resolve(eventEntitiesRef)));
  },
});
