import { defineFeature } from '@vigie/kernel';
import { pipelineStagesPoint, registerEngineBeat, type PipelineStage } from '@vigie/events';
import type { AlarmBeat } from './alarm-beat.js';
import type { AlarmChangeService } from './alarm-changes.js';
import type { AlarmRepository } from './alarm-repository.js';
import { alarmStage } from './alarm-stage.js';
import { alarmsConfigSchema, type AlarmsConfig } from './config.js';
import { alarmsBridge } from './di.js';
import { alarmRoutes } from './routes.js';

/**
 * Alarms: the lifecycle of REFERENCE §6.4 as the pipeline stage of order 400 and a beat every
 * `[engine] beat_interval`; exports `alarmChanges` (every alarm write) and `alarmReader`; serves the alarm list.
 */
export const alarmsFeature = defineFeature<AlarmsConfig>({
  id: 'alarms',
  kernel: '^0.1.0',
  dependsOn: ['events', 'context-graph'],
  config: { schema: alarmsConfigSchema },
  register(f) {
    f.use(alarmsBridge, { export: ['alarmChanges', 'alarmReader'] });
    for (const route of alarmRoutes) f.route(route);
    f.extend<PipelineStage>(pipelineStagesPoint, (c) => alarmStage(c.resolve<AlarmChangeService>('alarmChanges'), c.resolve<AlarmRepository>('alarmRepository')));
    f.onInit(async (c) => c.resolve<AlarmRepository>('alarmRepository').ensureIndexes());

    registerEngineBeat(f, { name: 'alarms', tick: (c) => c.resolve<AlarmBeat>('alarmBeat').run() });
  },
});
