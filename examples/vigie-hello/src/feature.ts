import { defineFeature, kernelRefs } from '@vigie/kernel';
import { durationSeconds } from '@vigie/input';
import { entitiesChangedEvent } from '@vigie/context-graph';
import { consoleExtensionsPoint } from '@vigie/console';
import { PipelineOrder, pipelineStagesPoint } from '@vigie/events';
import { helloConsoleExtension } from './console.js';
import { helloBridge } from './di.js';
import { helloErrors } from './errors.js';
import { HelloService } from './hello-service.js';
import { legacyRouter, legacyRouterOptions } from './legacy-router.js';
import { helloRoutes } from './routes.js';
import { helloConfig, type HelloConfig } from './schemas.js';
import { summaryCollection, visitCollection } from './visit-repository.js';

/** The example plugin: list `@acme/vigie-hello` in `[server] plugins`, configure it in `[hello]`. */
export const helloFeature = defineFeature<HelloConfig>({
  id: 'hello',
  kernel: '^0.1.0',
  // The event pipeline's extension point belongs to the events feature, `context-graph.entities-changed` to the
  // context graph, the console's extensions to the console.
  dependsOn: ['events', 'context-graph', 'console'],
  config: helloConfig,
  register(f) {
    f.use(helloBridge);
    f.collection(visitCollection);
    f.collection(summaryCollection);
    f.consume(entitiesChangedEvent);
    f.errors(helloErrors);
    for (const route of helloRoutes) f.route(route);
    f.router(legacyRouter(), legacyRouterOptions);
    f.job({
      name: 'hello.summary',
      every: (durationSeconds(f.config.summary_every) ?? 60) * 1000,
      handler: (run) => run.scope.resolve(HelloService).summarise(),
    });
    // A pipeline stage right after the entities stage: every event that got that far is counted by connector.
    f.extend(pipelineStagesPoint, (scope) => {
      const service = scope.resolve(HelloService);
      return { name: 'hello.events', order: PipelineOrder.entities + 10, process: async (context) => service.noteEvent(context.event.connector) };
    });
    // The console reads this from GET /api/v2/console/extensions and loads the module the route above serves.
    f.extend(consoleExtensionsPoint, () => helloConsoleExtension);
    f.healthCheck({ name: 'hello', check: (scope) => scope.resolve(HelloService).health() });
    f.onStart((scope) => {
      const service = scope.resolve(HelloService);
      scope.resolve(kernelRefs.eventBus).on(entitiesChangedEvent, ({ ids }) => service.noteChangedEntities(ids));
    });
  },
});
