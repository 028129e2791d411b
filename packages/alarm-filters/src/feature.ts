import { defineFeature } from '@vigie/kernel';
import { alarmFiltersBridge } from './di.js';
import { alarmFilterErrors } from './errors.js';
import { alarmFilterRoutes } from './routes.js';

/** Alarm-filter actions: tasks the alerts engine applies to matching alarms, kept in `default_alarmfilter`. */
export const alarmFiltersFeature = defineFeature({
  id: 'alarm-filters',
  kernel: '^0.1.0',
  register(f) {
    f.use(alarmFiltersBridge, { export: ['alarmFilterService'] });
    f.errors(alarmFilterErrors);
    for (const route of alarmFilterRoutes) f.route(route);
  },
});
