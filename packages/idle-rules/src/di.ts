import { defineBridge } from '@vigie/kernel';
import { RuleOperationRunner, RuleOperationTokens } from '@vigie/actions';
import { IdleMarkRepository } from './idle-marks.js';
import { IdleRuleEngine, IdleRuleEngineTokens } from './idle-rule-engine.js';
import { IdleRuleRepository } from './idle-rule-repository.js';
import { IdleRuleService } from './idle-rule-service.js';

/** The idle-rules feature's class graph (tsyringe) and what awilix sees of it. */
export const idleRulesBridge = defineBridge({
  imports: {
    alarmChanges: RuleOperationTokens.AlarmChanges,
    pbehaviorCreation: RuleOperationTokens.PbehaviorCreation,
    alarmReader: IdleRuleEngineTokens.AlarmReader,
    entityRepository: IdleRuleEngineTokens.EntityRepository,
  },
  singletons: [IdleRuleRepository, IdleRuleService, IdleMarkRepository, RuleOperationRunner, IdleRuleEngine],
  exports: { idleRuleService: IdleRuleService, idleRuleEngine: IdleRuleEngine },
});
