import { defineBridge } from '@vigie/kernel';
import { CorrelationEngine, CorrelationTokens } from './correlation-engine.js';
import { CorrelationGroupRepository } from './correlation-groups.js';
import { MetaAlarmRuleRepository } from './meta-alarm-rule-repository.js';
import { MetaAlarmRuleService } from './meta-alarm-rule-service.js';
import { RuleCatalog } from './rule-catalog.js';

/** The meta-alarms feature's class graph (tsyringe) and what awilix sees of it. */
export const metaAlarmsBridge = defineBridge({
  imports: {
    alarmChanges: CorrelationTokens.AlarmChanges,
    alarmReader: CorrelationTokens.AlarmReader,
    entityRepository: CorrelationTokens.EntityRepository,
    eventIntake: CorrelationTokens.EventIntake,
  },
  singletons: [MetaAlarmRuleRepository, CorrelationGroupRepository, MetaAlarmRuleService, RuleCatalog, CorrelationEngine],
  exports: { metaAlarmRuleService: MetaAlarmRuleService, correlationEngine: CorrelationEngine },
});
