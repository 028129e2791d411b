import { defineFeature } from '@vigie/kernel';
import { registerEngineBeat } from '@vigie/events';
import { AlarmFilterEngine } from './alarm-filter-engine.js';
import { alarmFiltersConfig, type AlarmFiltersConfig } from './config.js';
import { alarmFiltersBridge } from './di.js';
import { alarmFilterErrors } from './errors.js';
import { alarmFilterRoutes } from './routes.js';
import { alarmFilterCollection } from './alarm-filter-repository.js';

/**
 * Alarm-filter actions: tasks run on the alarms a filter selects, `limit` seconds after they appear and up to
 * `repeat` times (REFERENCE §5.6). The routes keep them in `default_alarmfilter`; the engine applies them every
 * `[engine] beat_interval`.
 */
export const alarmFiltersFeature = defineFeature<AlarmFiltersConfig>({
  id: 'alarm-filters',
  kernel: '^0.1.0',
  dependsOn: ['events', 'alarms', 'pbehaviors'],
  config: alarmFiltersConfig,
  register(f) {
    f.use(alarmFiltersBridge);
    f.collection(alarmFilterCollection);
    f.errors(alarmFilterErrors);
    for (const route of alarmFilterRoutes) f.route(route);
    registerEngineBeat(f, { name: 'alarm filters', tick: (c) => c.resolve(AlarmFilterEngine).beat() });
  },
});
