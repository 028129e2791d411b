import { defineFeature, kernelRefs } from '@vigie/kernel';
import { alarmTriggerEvent, alarmTriggerRedeliveredEvent, triggerDryRunPoint } from '@vigie/alarms';
import { delayedActionJob, delayedPurgeJob, ActionEngine, type DelayedActionData } from './action-engine.js';
import { delayedRunCollection } from './delayed-runs.js';
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
    f.collection(delayedRunCollection, { indexes: [{ keys: { ran: 1 } }] });
    f.consume(alarmTriggerEvent, alarmTriggerRedeliveredEvent);
    f.errors(actionErrors);
    for (const route of actionRoutes) f.route(route);
    f.extend(triggerDryRunPoint, (c) => ({ name: 'actions', wouldFire: (payload) => c.resolve(ActionEngine).wouldFire(payload) }));
    // One run per delayed action, no retry: a failing operation is logged, not applied twice.
    f.job<DelayedActionData>({
      name: delayedActionJob,
      concurrency: 4,
      handler: (run) => run.scope.resolve(ActionEngine).runDelayed(run.data),
    });
    f.job({ name: delayedPurgeJob, every: '1 hour', handler: (run) => run.scope.resolve(ActionEngine).purgeRuns() });
    const stopListening: (() => void)[] = [];
    f.onInit((c) => {
      const engine = c.resolve(ActionEngine);
      const bus = c.resolve(kernelRefs.eventBus);
      stopListening.push(bus.on(alarmTriggerEvent, (payload) => engine.onTrigger(payload)));
      // After a crash between an alarm change and its triggers: the delayed jobs not yet planned are planned once.
      stopListening.push(bus.on(alarmTriggerRedeliveredEvent, (payload) => engine.onRedeliveredTrigger(payload)));
    });
    f.onShutdown(() => {
      for (const stop of stopListening.splice(0)) stop();
    });
  },
});
