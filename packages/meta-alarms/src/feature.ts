import { defineFeature } from '@vigie/kernel';
import { metaAlarmsBridge } from './di.js';
import { metaAlarmErrors } from './errors.js';
import { metaAlarmRoutes } from './routes.js';

/** Meta-alarm rules: the correlation rules of `meta_alarm_rules`, served under `/api/v2/metaalarmrule`. */
export const metaAlarmsFeature = defineFeature({
  id: 'meta-alarms',
  kernel: '^0.1.0',
  register(f) {
    f.use(metaAlarmsBridge, { export: ['metaAlarmRuleService'] });
    f.errors(metaAlarmErrors);
    for (const route of metaAlarmRoutes) f.route(route);
  },
});
