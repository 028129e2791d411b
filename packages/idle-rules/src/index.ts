export { idleRulesFeature } from './feature.js';
export { IdleRuleService, publicIdleRule, type IdleRule } from './idle-rule-service.js';
export type { IdleRuleRecord, Pattern } from './idle-rule-repository.js';
export { idleRuleBodySchema, idleRuleSchema, idleRuleTypes, operationTypes, type IdleRuleBody } from './schemas.js';
