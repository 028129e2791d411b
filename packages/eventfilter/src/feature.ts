import { defineFeature } from '@vigie/kernel';
import { eventFilterBridge } from './di.js';
import { ruleErrors } from './errors.js';
import { eventFilterRoutes } from './routes.js';

/**
 * Event filter: the rules the event pipeline applies to every incoming event, by priority — enrich it, stop the
 * rules (`break`) or drop it (REFERENCE §5.2). The routes keep them in `eventfilter`, where the pipeline reads them.
 */
export const eventFilterFeature = defineFeature({
  id: 'eventfilter',
  kernel: '^0.1.0',
  register(f) {
    f.use(eventFilterBridge, { export: ['eventFilterRuleService'] });
    f.errors(ruleErrors);
    for (const route of eventFilterRoutes) f.route(route);
  },
});
