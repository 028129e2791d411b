import { defineFeature } from '@vigie/kernel';
import { idleRulesBridge } from './di.js';
import { idleRuleErrors } from './errors.js';
import { idleRuleRoutes } from './routes.js';

/**
 * Idle rules: what happens to alarms that received no event (`last_event`) or did not change (`last_update`) for a
 * duration. The routes keep the rules in `idle_rule`, where the alarm engine reads them.
 */
export const idleRulesFeature = defineFeature({
  id: 'idle-rules',
  kernel: '^0.1.0',
  register(f) {
    f.use(idleRulesBridge, { export: ['idleRuleService'] });
    f.errors(idleRuleErrors);
    for (const route of idleRuleRoutes) f.route(route);
  },
});
