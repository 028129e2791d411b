import { defineFeature, type EventBus } from '@vigie/kernel';
import { pipelineStagesPoint, type PipelineStage } from '@vigie/events';
import type { CorrelationEngine } from './correlation-engine.js';
import { metaAlarmsBridge } from './di.js';
import { metaAlarmErrors } from './errors.js';
import { metaAlarmStage } from './meta-alarm-stage.js';
import { metaAlarmRoutes } from './routes.js';

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
    f.use(metaAlarmsBridge, { export: ['metaAlarmRuleService'] });
    f.errors(metaAlarmErrors);
    for (const route of metaAlarmRoutes) f.route(route);
    f.extend<PipelineStage>(pipelineStagesPoint, (c) => metaAlarmStage(c.resolve<CorrelationEngine>('correlationEngine')));
    const stopListening: (() => void)[] = [];
    f.onInit((c) => {
      const engine = c.resolve<CorrelationEngine>('correlationEngine');
      const bus = c.resolve<EventBus>('eventBus');
      stopListening.push(bus.on('alarms.trigger', (payload) => engine.onTrigger(payload)));
      // After a crash between a child's change and its meta-alarm's: applying it again changes nothing if it was done.
      stopListening.push(bus.on('alarms.trigger.redelivered', (payload) => engine.onTrigger(payload)));
    });
    f.onShutdown(() => {
      for (const stop of stopListening.splice(0)) stop();
    });
  },
});
