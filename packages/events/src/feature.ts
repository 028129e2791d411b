import { defineFeature } from '@vigie/kernel';
import { engineConfig, type EngineConfig } from './config.js';
import { eventsBridge } from './di.js';
import { EventIntake } from './event-intake.js';
import { failureCollection, progressCollection, queueCollection } from './event-queue.js';
import { PipelineHealth } from './pipeline-health.js';
import { nodeLeaseCollection } from './queue-takeover.js';
import { pipelineStagesPoint } from './pipeline.js';
import { eventRoutes } from './routes.js';
import { validationStage } from './validation-stage.js';
import { RecentEvents, recentEventsStage } from './recent-events.js';

/** Names of the checks this feature adds to the health registry (`engines.` ⇒ the healthcheck's `engines` entry). */
export const eventsHealthChecks = { pipeline: 'engines.pipeline' } as const;

/**
 * The event pipeline: events enter over HTTP (and AMQP, see `eventsAmqpFeature`), are durably queued, then go
 * through the stages other features contribute to `events.stages`, in their order, one at a time per entity.
 * Owns `[engine]`.
 */
export const eventsFeature = defineFeature<EngineConfig>({
  id: 'events',
  kernel: '^0.1.0',
  config: engineConfig,
  register(f) {
    f.use(eventsBridge);
    f.collection(queueCollection, { indexes: [{ keys: { node: 1 } }] });
    f.collection(progressCollection, { indexes: [{ keys: { node: 1 } }, { keys: { batch: 1 } }] });
    f.collection(failureCollection);
    f.collection(nodeLeaseCollection);
    f.extensionPoint(pipelineStagesPoint);
    f.extend(pipelineStagesPoint, () => validationStage);
    f.extend(pipelineStagesPoint, (c) => recentEventsStage(c.resolve(RecentEvents)));
    for (const route of eventRoutes) f.route(route);
    f.healthCheck({ name: eventsHealthChecks.pipeline, check: (c) => c.resolve(PipelineHealth).check() });
    f.onInit((c) => c.resolve(EventIntake).init());
    f.onStart((c) => c.resolve(EventIntake).start());
    f.onBeforeShutdown((c) => c.resolve(EventIntake).stop());
  },
});
