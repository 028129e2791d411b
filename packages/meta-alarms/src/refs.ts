import { serviceRef } from '@vigie/kernel';
import type { MetaAlarmRuleService } from './meta-alarm-rule-service.js';

/** The meta-alarm rules (CRUD) of the API. */
export const metaAlarmRuleServiceRef = serviceRef<MetaAlarmRuleService>('meta-alarms.ruleService');
