import { defineBridge } from '@vigie/kernel';
import { MetaAlarmRuleRepository } from './meta-alarm-rule-repository.js';
import { MetaAlarmRuleService } from './meta-alarm-rule-service.js';

/** The meta-alarms feature's class graph (tsyringe) and what awilix sees of it. */
export const metaAlarmsBridge = defineBridge({
  singletons: [MetaAlarmRuleRepository, MetaAlarmRuleService],
  exports: { metaAlarmRuleService: MetaAlarmRuleService },
});
