import { serviceRef } from '@vigie/kernel';
import type { RuleService } from './rule-service.js';

/** The event filter rules (CRUD) of the API. */
export const eventFilterRuleServiceRef = serviceRef<RuleService>('eventfilter.ruleService');
