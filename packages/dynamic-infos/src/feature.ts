import { defineFeature, kernelRefs } from '@vigie/kernel';
import { alarmChangeDataKey, alarmTriggerEvent } from '@vigie/alarms';
import { PipelineOrder, pipelineStagesPoint } from '@vigie/events';
import { dynamicInfosBridge } from './di.js';
import { DynamicInfosEngine } from './dynamic-infos-engine.js';
import { dynamicInfosErrors } from './errors.js';
import { dynamicInfosRoutes } from './routes.js';
import { dynamicInfosCollection } from './dynamic-infos-repository.js';

/**
 * Dynamic infos rules: information added to matching alarms (`v.infos.<rule id>`), kept in `dynamic_infos`. The
 * engine computes an alarm's infos again after every change: a pipeline stage for changes caused by events, an
 * `alarms.trigger` subscriber for the others.
 */
export const dynamicInfosFeature = defineFeature({
  id: 'dynamic-infos',
  kernel: '^0.1.0',
  dependsOn: ['events', 'alarms', 'context-graph'],
  register(f) {
    f.use(dynamicInfosBridge);
    f.collection(dynamicInfosCollection);
    f.consume(alarmTriggerEvent);
    f.errors(dynamicInfosErrors);
    for (const route of dynamicInfosRoutes) f.route(route);
    f.extend(pipelineStagesPoint, (c) => {
      const engine = c.resolve(DynamicInfosEngine);
      return {
        name: 'dynamic-infos',
        order: PipelineOrder.dynamicInfos,
        process: (context) => {
          const change = context.data.get(alarmChangeDataKey);
          return change ? engine.afterChange(context.entityId, change.alarm, context.entity) : undefined;
        },
        async dryRun(context) {
          const change = context.data.get(alarmChangeDataKey);
          if (!change) return;
          const infos = await engine.wouldSet(change.alarm, context.entity);
          if (infos === null) context.would("leave the alarm's dynamic infos as they are");
          else context.would("set the alarm's dynamic infos", { infos });
        },
      };
    });
    let stopListening: (() => void) | undefined;
    f.onInit((c) => {
      const engine = c.resolve(DynamicInfosEngine);
      stopListening = c.resolve(kernelRefs.eventBus).on(alarmTriggerEvent, (payload) => engine.onTrigger(payload));
    });
    f.onShutdown(() => stopListening?.());
  },
});
