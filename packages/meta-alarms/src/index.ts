export { metaAlarmsFeature } from './feature.js';
export { ruleTypes, configKeyRuleTypes, type RuleType } from './rule-types.js';
export type { RuleConfig, RulePatterns, Pattern } from './rule-input.js';
export type { MetaAlarmRuleRecord } from './meta-alarm-rule-repository.js';
export { MetaAlarmRuleService, type MetaAlarmRuleOutput } from './meta-alarm-rule-service.js';
