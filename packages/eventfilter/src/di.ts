import { defineBridge } from '@vigie/kernel';
import { RuleRepository } from './rule-repository.js';
import { RuleService } from './rule-service.js';

/** The event-filter feature's class graph (tsyringe) and what awilix sees of it. */
export const eventFilterBridge = defineBridge({
  singletons: [RuleRepository, RuleService],
  exports: { eventFilterRuleService: RuleService },
});
