import { defineBridge } from '@vigie/kernel';
import { IdleRuleRepository } from './idle-rule-repository.js';
import { IdleRuleService } from './idle-rule-service.js';

/** The idle-rules feature's class graph (tsyringe) and what awilix sees of it. */
export const idleRulesBridge = defineBridge({
  singletons: [IdleRuleRepository, IdleRuleService],
  exports: { idleRuleService: IdleRuleService },
});
