import { defineFeature, kernelRefs } from '@vigie/kernel';
import { alarmTriggerRedeliveredEvent, alarmTriggerEvent } from '@vigie/alarms';
import { pipelineStagesPoint } from '@vigie/events';
import { CorrelationEngine } from './correlation-engine.js';
import { metaAlarmsBridge } from './di.js';
import { metaAlarmErrors } from './errors.js';
import { metaAlarmStage } from './meta-alarm-stage.js';
import { metaAlarmRoutes } from './routes.js';
import { correlationGroupCollection } from './correlation-groups.js';
import { metaAlarmRuleCollection } from './meta-alarm-rule-repository.js';

/**
 * Meta-alarm rules and the correlation engine: the rules of `meta_alarm_rules`, served under
 * `/api/v2/metaalarmrule`; the pipeline stage of order 600 that applies them; the `alarms.trigger` subscriber that
 * keeps meta-alarms at their worst child state and resolves them (`auto_resolve`). Open groups live in
 * `meta_alarm_groups`.
 */
export const metaAlarmsFeature = defineFeature({
  id: 'meta-alarms',
  kernel: '^0.1.0',
  dependsOn: ['events', 'context-graph', 'alarms'],
  register(f) {
    f.use(metaAlarmsBridge);
    f.collection(correlationGroupCollection);
    f.collection(metaAlarmRuleCollection);
    f.consume(alarmTriggerEvent, alarmTriggerRedeliveredEvent);
    f.errors(metaAlarmErrors);
    for (const route of metaAlarmRoutes) f.route(route);
    f.extend(pipelineStagesPoint, (c) => metaAlarmStage(c.resolve(CorrelationEngine)));
    const stopListening: (() => void)[] = [];
    f.onInit((c) => {
      const engine = c.resolve(CorrelationEngine);
      const bus = c.resolve(kernelRefs.eventBus);
      stopListening.push(bus.on(alarmTriggerEvent, (payload) => engine.onTrigger(payload)));
      // After a crash between a child's change and its meta-alarm's: applying it again changes nothing if it was done.
      stopListening.push(bus.on(alarmTriggerRedeliveredEvent, (payload) => engine.onTrigger(payload)));
    });
    f.onShutdown(() => {
      for (const stop of stopListening.splice(0)) stop();
    });
  },
});
