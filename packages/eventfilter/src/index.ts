export { eventFilterFeature } from './feature.js';
export { RuleService, type Rule } from './rule-service.js';
export type { Pattern, RuleRecord } from './rule-repository.js';
export { enrichmentFields, ruleBodySchema, ruleOutcomes, ruleTypes, type RuleBody } from './schemas.js';
export { eventFilterRuleServiceRef } from './refs.js';
