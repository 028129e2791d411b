import { defineFeature } from '@vigie/kernel';
import { actionsBridge } from './di.js';
import { actionErrors } from './errors.js';
import { actionRoutes } from './routes.js';

/**
 * Actions: operations (a pbehavior, a snooze, an ack, …) that the action engine applies when a trigger fires on an
 * alarm matching the hook's patterns. The routes keep them in `default_action`, where the engine reads them.
 */
export const actionsFeature = defineFeature({
  id: 'actions',
  kernel: '^0.1.0',
  register(f) {
    f.use(actionsBridge, { export: ['actionService'] });
    f.errors(actionErrors);
    for (const route of actionRoutes) f.route(route);
  },
});
