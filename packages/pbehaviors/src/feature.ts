import { defineFeature, kernelRefs } from '@vigie/kernel';
import { alarmChangeDataKey } from '@vigie/alarms';
import { entitiesChangedEvent } from '@vigie/context-graph';
import { PipelineOrder, pipelineStagesPoint, registerEngineBeat } from '@vigie/events';
import { ActivePbehaviors } from './active-pbehaviors.js';
import { pbehaviorsConfig, type PbehaviorsConfig } from './config.js';
import { pbehaviorsBridge } from './di.js';
import { pbehaviorErrors } from './errors.js';
import { PbehaviorAlarmEngine } from './pbehavior-alarms.js';
import { pbehaviorCollection } from './pbehavior-repository.js';
import { PbehaviorService } from './pbehavior-service.js';
import { bulkPbehaviorRoutes } from './bulk-routes.js';
import { pbehaviorRoutes } from './routes.js';

/**
 * Periodic behaviors: windows, one-off or recurring, during which the entities a filter selects are paused
 * (maintenance, out of monitoring hours, …). Exports `activePbehaviorsRef`, the "is this entity paused now" service.
 * Its engine puts open alarms under the pbehaviors of their entities (`pbhenter`, `pbhleave`, `v.pbehavior_info`):
 * a beat every `[engine] beat_interval`, and a pipeline stage for the alarms events create.
 */
export const pbehaviorsFeature = defineFeature<PbehaviorsConfig>({
  id: 'pbehaviors',
  kernel: '^0.1.0',
  dependsOn: ['events', 'context-graph', 'alarms'],
  config: pbehaviorsConfig,
  register(f) {
    f.use(pbehaviorsBridge);
    // A multikey index for `pbehavior_byeid` (used by the MongoDB adapter).
    f.collection(pbehaviorCollection, { indexes: [{ keys: { eids: 1 } }] });
    f.consume(entitiesChangedEvent);
    f.errors(pbehaviorErrors);
    for (const route of [...pbehaviorRoutes, ...bulkPbehaviorRoutes]) f.route(route);

    let stopListening: (() => void) | undefined;
    f.onInit(async (c) => {
      const service = c.resolve(PbehaviorService);
      stopListening = c.resolve(kernelRefs.eventBus).on(entitiesChangedEvent, ({ ids }) => service.entitiesChanged(ids));
    });
    // Load the index and evaluate every schedule once, after start and off the boot path, so that the first
    // weather page does not pay for it.
    f.onStart((c) => {
      const logger = c.resolve(kernelRefs.logger);
      const activePbehaviors = c.resolve(ActivePbehaviors);
      setImmediate(() => {
        activePbehaviors
          .at()
          .then((active) => active.all())
          .catch((err: unknown) => logger.warn({ err }, 'warming the pbehavior index up failed'));
      });
    });
    f.onShutdown(() => stopListening?.());

    // A new alarm on an entity already under a pbehavior enters it at once, not at the next beat.
    f.extend(pipelineStagesPoint, (c) => {
      const engine = c.resolve(PbehaviorAlarmEngine);
      return {
        name: 'pbehaviors',
        order: PipelineOrder.pbehaviors,
        // Only new alarms concern it: every other event passes without a promise.
        process(context) {
          const change = context.data.get(alarmChangeDataKey);
          if (!change?.created) return undefined;
          return engine.alarmCreated(change.alarm).then((entered) => {
            if (entered) context.trace('pbehaviors', `the new alarm entered pbehavior ${entered}`, { alarm: change.alarm._id });
          });
        },
        async dryRun(context) {
          const change = context.data.get(alarmChangeDataKey);
          // Alarms already open follow their pbehaviors through the engine's beat, not through events.
          if (!change?.created) return;
          const info = await engine.wouldEnter(change.alarm);
          if (info) context.would(`put the new alarm in pbehavior ${info.id}`, { pbehavior_info: info });
          else context.would('leave the new alarm out of any pbehavior: none is active on its entity');
        },
      };
    });
    registerEngineBeat(f, { name: 'pbehaviors on alarms', tick: (c) => c.resolve(PbehaviorAlarmEngine).beat() });
  },
});
