import { defineFeature, type EventBus, type Logger } from '@vigie/kernel';
import { alarmChangeDataKey, type AppliedChange } from '@vigie/alarms';
import { PipelineOrder, pipelineStagesPoint, registerEngineBeat, type PipelineStage } from '@vigie/events';
import type { ActivePbehaviors } from './active-pbehaviors.js';
import { pbehaviorsConfigSchema, type PbehaviorsConfig } from './config.js';
import { pbehaviorsBridge } from './di.js';
import { pbehaviorErrors } from './errors.js';
import type { PbehaviorAlarmEngine } from './pbehavior-alarms.js';
import type { PbehaviorRepository } from './pbehavior-repository.js';
import type { PbehaviorService } from './pbehavior-service.js';
import { pbehaviorRoutes } from './routes.js';

/**
 * Periodic behaviors: windows, one-off or recurring, during which the entities a filter selects are paused
 * (maintenance, out of monitoring hours, …). Exports `activePbehaviors`, the "is this entity paused now" service.
 * Its engine puts open alarms under the pbehaviors of their entities (`pbhenter`, `pbhleave`, `v.pbehavior_info`):
 * a beat every `[engine] beat_interval`, and a pipeline stage for the alarms events create.
 */
export const pbehaviorsFeature = defineFeature<PbehaviorsConfig>({
  id: 'pbehaviors',
  kernel: '^0.1.0',
  dependsOn: ['events', 'alarms'],
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

    // A new alarm on an entity already under a pbehavior enters it at once, not at the next beat.
    f.extend<PipelineStage>(pipelineStagesPoint, (c) => {
      const engine = c.resolve<PbehaviorAlarmEngine>('pbehaviorAlarmEngine');
      return {
        name: 'pbehaviors',
        order: PipelineOrder.pbehaviors,
        async process(context) {
          const change = context.data.get(alarmChangeDataKey) as AppliedChange | undefined;
          if (!change?.created) return;
          const entered = await engine.alarmCreated(change.alarm);
          if (entered) context.trace('pbehaviors', `the new alarm entered pbehavior ${entered}`, { alarm: change.alarm._id });
        },
      };
    });
    registerEngineBeat(f, { name: 'pbehaviors on alarms', tick: (c) => c.resolve<PbehaviorAlarmEngine>('pbehaviorAlarmEngine').beat() });
  },
});
