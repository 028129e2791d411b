import { defineFeature, kernelRefs } from '@vigie/kernel';
import { pipelineStagesPoint, registerEngineBeat } from '@vigie/events';
import { AlarmBeat } from './alarm-beat.js';
import { AlarmChangeService } from './alarm-changes.js';
import { AlarmRepository } from './alarm-repository.js';
import { alarmStage } from './alarm-stage.js';
import { alarmsConfig, type AlarmsConfig } from './config.js';
import { alarmsBridge } from './di.js';
import { alarmChangedEvent, alarmTriggerEvent, alarmTriggerRedeliveredEvent, triggerDryRunPoint } from './refs.js';
import { alarmActionRoutes, bulkAlarmActionRoutes } from './action-routes.js';
import { alarmRoutes } from './routes.js';
import { alarmCollection } from './alarm.js';

/**
 * Alarms: the lifecycle of REFERENCE §6.4 as the pipeline stage of order 400 and a beat every
 * `[engine] beat_interval`; exports `alarmChangesRef` (every alarm write) and `alarmReaderRef`; serves the alarm list.
 */
export const alarmsFeature = defineFeature<AlarmsConfig>({
  id: 'alarms',
  kernel: '^0.1.0',
  dependsOn: ['events', 'context-graph'],
  config: alarmsConfig,
  register(f) {
    f.use(alarmsBridge);
    // Indexes of the reads: the open alarm of an entity, the beats' candidates, the list's time window, and the list's
    // most used filter and sort keys (state, last update), which the stores read a page in the order of.
    f.collection(alarmCollection, {
      indexes: [{ keys: { d: 1 } }, { keys: { 'v.resolved': 1 } }, { keys: { t: 1 } }, { keys: { 'v.component': 1 } }, { keys: { 'v.state.val': 1 } }, { keys: { 'v.last_update_date': 1 } }],
    });
    f.event(alarmTriggerEvent);
    f.event(alarmTriggerRedeliveredEvent);
    f.event(alarmChangedEvent);
    for (const route of [...alarmActionRoutes, ...bulkAlarmActionRoutes, ...alarmRoutes]) f.route(route);
    f.extensionPoint(triggerDryRunPoint);
    f.extend(pipelineStagesPoint, (c) => alarmStage(c.resolve(AlarmChangeService), c.resolve(AlarmRepository), () => c.resolve(kernelRefs.extensions).contributions(triggerDryRunPoint)));

    registerEngineBeat(f, { name: 'alarms', tick: (c) => c.resolve(AlarmBeat).run() });
  },
});
