import { defineFeature, durationSeconds, type EventBus } from '@vigie/kernel';
import { PipelineOrder, pipelineStagesPoint, type PipelineStage } from '@vigie/events';
import { helloBridge } from './di.js';
import { helloErrors } from './errors.js';
import type { HelloService } from './hello-service.js';
import { legacyRouter, legacyRouterOptions } from './legacy-router.js';
import { helloRoutes } from './routes.js';
import { helloConfigSchema, type HelloConfig } from './schemas.js';

/** The example plugin: list `@acme/vigie-hello` in `[server] plugins`, configure it in `[hello]`. */
export const helloFeature = defineFeature<HelloConfig>({
  id: 'hello',
  kernel: '^0.1.0',
  // The event pipeline's extension point belongs to the events feature.
  dependsOn: ['events'],
  config: { schema: helloConfigSchema },
  register(f) {
    f.use(helloBridge);
    f.errors(helloErrors);
    for (const route of helloRoutes) f.route(route);
    f.router(legacyRouter(), legacyRouterOptions);
    f.job({
      name: 'hello.summary',
      every: (durationSeconds(f.config.summary_every) ?? 60) * 1000,
      handler: (run) => run.scope.resolve<HelloService>('helloService').summarise(),
    });
    // A pipeline stage right after the entities stage: every event that got that far is counted by connector.
    f.extend<PipelineStage>(pipelineStagesPoint, (container) => {
      const service = container.resolve<HelloService>('helloService');
      return { name: 'hello.events', order: PipelineOrder.entities + 10, process: async (context) => service.noteEvent(context.event.connector) };
    });
    f.healthCheck({ name: 'hello', check: (container) => container.resolve<HelloService>('helloService').health() });
    f.onStart((container) => {
      const service = container.resolve<HelloService>('helloService');
      container.resolve<EventBus>('eventBus').on('entities.changed', ({ ids }) => service.noteChangedEntities(ids));
    });
  },
});
