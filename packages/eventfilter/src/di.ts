import { defineBridge } from '@vigie/kernel';
import { RuleCache } from './rule-cache.js';
import { RuleRepository } from './rule-repository.js';
import { RuleService } from './rule-service.js';
import { EventFilterTokens } from './tokens.js';

/** The event-filter feature's class graph (tsyringe) and what awilix sees of it. */
export const eventFilterBridge = defineBridge({
  imports: { eventEntities: EventFilterTokens.EventEntities },
  singletons: [RuleRepository, RuleCache, RuleService],
  exports: { eventFilterRuleService: RuleService, eventFilterRuleCache: RuleCache },
});
