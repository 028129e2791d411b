export { idleRulesFeature, idleRulesStageOrder } from './feature.js';
export { IdleRuleService, publicIdleRule } from './idle-rule-service.js';
export type { IdleRuleRecord, Pattern } from './idle-rule-repository.js';
export { idleRuleBodySchema, idleRuleSchema, idleRuleTypes, operationTypes, type IdleRule, type IdleRuleBody } from './schemas.js';
export { IdleRuleEngine, type IdleBeatReport } from './idle-rule-engine.js';
export type { IdleMark } from './idle-marks.js';
export { idleRuleServiceRef } from './refs.js';
