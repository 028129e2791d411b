import { PipelineOrder, type DryRunContext, type PipelineContext, type PipelineStage } from '@vigie/events';
import { alarmChangeDataKey } from '@vigie/alarms';
import { metaAlarmEventTypes, type CorrelationEngine } from './correlation-engine.js';

const metaEventTypes: ReadonlySet<string> = new Set(metaAlarmEventTypes);

/**
 * The meta-alarms stage (order 600, after the alarms stage): a check event's alarm goes through the correlation
 * rules; a `metaalarm` / `metaalarmupdated` event (sent by the engine) is applied to its meta-alarm. Running in the
 * pipeline, rather than on `alarms.trigger`, lets every check event of an open alarm be correlated (as the
 * original), not only those that changed it, and makes a redelivered event correlate again.
 */
export function metaAlarmStage(engine: CorrelationEngine): PipelineStage {
  return {
    name: 'meta-alarms',
    order: PipelineOrder.metaAlarms,
    process(context: PipelineContext): Promise<void> | undefined {
      const type = context.event.event_type;
      if (metaEventTypes.has(type)) return engine.applyMetaAlarmEvent(context);
      // Without rules there is nothing to correlate: answered synchronously, at no cost per event.
      if (type !== 'check' || context.entity?.enabled === false || engine.withoutRules()) return undefined;
      const change = context.data.get(alarmChangeDataKey);
      return engine.correlate(context, change?.alarm);
    },
    async dryRun(context: DryRunContext): Promise<void> {
      const type = context.event.event_type;
      if (metaEventTypes.has(type)) return context.would(`apply the ${type} event to its meta-alarm`);
      if (type !== 'check' || context.entity?.enabled === false) return;
      const change = context.data.get(alarmChangeDataKey);
      for (const { what, rule } of await engine.wouldCorrelate(context, change?.alarm)) context.would(what, { rule });
    },
  };
}
