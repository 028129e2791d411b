export { metaAlarmsFeature } from './feature.js';
export { ruleTypes, configKeyRuleTypes, type RuleType } from './rule-types.js';
export type { RuleConfig, RulePatterns, Pattern } from './rule-input.js';
export type { MetaAlarmRuleRecord } from './meta-alarm-rule-repository.js';
export { MetaAlarmRuleService } from './meta-alarm-rule-service.js';
export type { MetaAlarmRuleOutput } from './schemas.js';
export { correlationGroupCollection, type CorrelationGroup, type GroupMember } from './correlation-groups.js';
export { correlationAuthor, metaAlarmEventTypes, metaAlarmOrigin, metaAlarmResourcePrefix } from './correlation-engine.js';
export { metaAlarmRuleServiceRef } from './refs.js';
