import { defineFeature, type EventBus } from '@vigie/kernel';
import { delayedActionJob, type ActionEngine, type DelayedActionData } from './action-engine.js';
import { actionsBridge } from './di.js';
import { actionErrors } from './errors.js';
import { actionRoutes } from './routes.js';

/**
 * Actions: operations (a pbehavior, a snooze, an ack, …) applied when a trigger fires on an alarm matching the hook's
 * patterns. The routes keep them in `default_action`; the engine listens to `alarms.trigger` and runs delayed
 * actions as durable `actions.delayed` jobs.
 */
export const actionsFeature = defineFeature({
  id: 'actions',
  kernel: '^0.1.0',
  dependsOn: ['alarms', 'context-graph', 'pbehaviors'],
  register(f) {
    f.use(actionsBridge, { export: ['actionService'] });
    f.errors(actionErrors);
    for (const route of actionRoutes) f.route(route);
    // One run per delayed action, no retry: a failing operation is logged, not applied twice.
    f.job<DelayedActionData>({
      name: delayedActionJob,
      concurrency: 4,
      handler: (run) => run.scope.resolve<ActionEngine>('actionEngine').runDelayed(run.data),
    });
    let stopListening: (() => void) | undefined;
    f.onInit((c) => {
      const engine = c.resolve<ActionEngine>('actionEngine');
      stopListening = c.resolve<EventBus>('eventBus').on('alarms.trigger', (payload) => engine.onTrigger(payload));
    });
    f.onShutdown(() => stopListening?.());
  },
});
