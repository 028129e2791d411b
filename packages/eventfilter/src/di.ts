import { defineBridge, provide } from '@vigie/kernel';
import { eventEntitiesRef } from '@vigie/context-graph';
import { recentEventsRef } from '@vigie/events';
import { EventFilterRules } from './event-filter-rules.js';
import { RuleRepository } from './rule-repository.js';
import { RuleService } from './rule-service.js';
import { RulePreviewService } from './rule-preview.js';
import { eventFilterRuleServiceRef } from './refs.js';

/** The event-filter feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const eventFilterBridge = defineBridge({
  imports: [eventEntitiesRef, recentEventsRef],
  singletons: [RuleRepository, EventFilterRules, RuleService, RulePreviewService],
  exports: [provide(eventFilterRuleServiceRef, RuleService)],
});
