import { defineFeature, kernelRefs } from '@vigie/kernel';
import { alarmTriggerEvent } from '@vigie/alarms';
import { delayedActionJob, ActionEngine, type DelayedActionData } from './action-engine.js';
import { actionsBridge } from './di.js';
import { actionErrors } from './errors.js';
import { actionRoutes } from './routes.js';
import { actionCollection } from './action-repository.js';

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
    f.use(actionsBridge);
    f.collection(actionCollection);
    f.consume(alarmTriggerEvent);
    f.errors(actionErrors);
    for (const route of actionRoutes) f.route(route);
    // One run per delayed action, no retry: a failing operation is logged, not applied twice.
    f.job<DelayedActionData>({
      name: delayedActionJob,
      concurrency: 4,
      handler: (run) => run.scope.resolve(ActionEngine).runDelayed(run.data),
    });
    let stopListening: (() => void) | undefined;
    f.onInit((c) => {
      const engine = c.resolve(ActionEngine);
      stopListening = c.resolve(kernelRefs.eventBus).on(alarmTriggerEvent, (payload) => engine.onTrigger(payload));
    });
    f.onShutdown(() => stopListening?.());
  },
});
