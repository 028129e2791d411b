import { defineFeature, type EventBus, type Logger } from '@vigie/kernel';
import type { ActivePbehaviors } from './active-pbehaviors.js';
import { pbehaviorsConfigSchema, type PbehaviorsConfig } from './config.js';
import { pbehaviorsBridge } from './di.js';
import { pbehaviorErrors } from './errors.js';
import type { PbehaviorRepository } from './pbehavior-repository.js';
import type { PbehaviorService } from './pbehavior-service.js';
import { pbehaviorRoutes } from './routes.js';

/**
 * Periodic behaviors: windows, one-off or recurring, during which the entities a filter selects are paused
 * (maintenance, out of monitoring hours, …). Exports `activePbehaviors`, the "is this entity paused now" service.
 */
export const pbehaviorsFeature = defineFeature<PbehaviorsConfig>({
  id: 'pbehaviors',
  kernel: '^0.1.0',
  config: { schema: pbehaviorsConfigSchema },
  register(f) {
    f.use(pbehaviorsBridge, { export: ['activePbehaviors', 'pbehaviorCreation'] });
    f.errors(pbehaviorErrors);
    for (const route of pbehaviorRoutes) f.route(route);

    let stopListening: (() => void) | undefined;
    f.onInit(async (c) => {
      await c.resolve<PbehaviorRepository>('pbehaviorRepository').ensureIndexes();
      const service = c.resolve<PbehaviorService>('pbehaviorService');
      stopListening = c.resolve<EventBus>('eventBus').on('entities.changed', ({ ids }) => service.entitiesChanged(ids));
    });
    // Load the index and evaluate every schedule once, after start and off the boot path, so that the first
    // weather page does not pay for it.
    f.onStart((c) => {
      const logger = c.resolve<Logger>('logger');
      const activePbehaviors = c.resolve<ActivePbehaviors>('activePbehaviors');
      setImmediate(() => {
        activePbehaviors
          .at()
          .then((active) => active.all())
          .catch((err: unknown) => logger.warn({ err }, 'warming the pbehavior index up failed'));
      });
    });
    f.onShutdown(() => stopListening?.());
  },
});
