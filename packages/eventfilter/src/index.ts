export { eventFilterFeature } from './feature.js';
export { RuleService } from './rule-service.js';
export type { Rule } from './schemas.js';
export type { Pattern, RuleRecord } from './rule-repository.js';
export { enrichmentFields, ruleBodySchema, ruleOutcomes, ruleTypes, type RuleBody } from './schemas.js';
export { eventFilterRuleServiceRef } from './refs.js';
