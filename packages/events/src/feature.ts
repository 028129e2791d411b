import { defineFeature } from '@vigie/kernel';
import { engineConfigSchema, type EngineConfig } from './config.js';
import { eventsBridge } from './di.js';
import { pipelineStagesPoint } from './pipeline.js';

/**
 * The event pipeline: events enter over HTTP (and AMQP), are durably queued, then go through the stages other
 * features contribute to `events.stages`, in their order, one at a time per entity. Owns `[engine]`.
 */
export const eventsFeature = defineFeature<EngineConfig>({
  id: 'events',
  kernel: '^0.1.0',
  config: { schema: engineConfigSchema, section: 'engine' },
  register(f) {
    f.use(eventsBridge, { export: ['engineSettings'] });
    f.extensionPoint(pipelineStagesPoint);
  },
});
