import { serviceRef } from '@vigie/kernel';
import type { IdleRuleService } from './idle-rule-service.js';

/** The idle rules (CRUD) of the API. */
export const idleRuleServiceRef = serviceRef<IdleRuleService>('idle-rules.service');
