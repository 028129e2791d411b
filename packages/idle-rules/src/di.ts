import { defineBridge, provide } from '@vigie/kernel';
import { RuleOperationRunner } from '@vigie/actions';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef } from '@vigie/alarms';
import { entityRepositoryRef } from '@vigie/context-graph';
import { pbehaviorCreationRef } from '@vigie/pbehaviors';
import { IdleMarkRepository } from './idle-marks.js';
import { IdleRuleEngine } from './idle-rule-engine.js';
import { IdleRuleRepository } from './idle-rule-repository.js';
import { IdleRuleService } from './idle-rule-service.js';
import { idleRuleServiceRef } from './refs.js';

/** The idle-rules feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const idleRulesBridge = defineBridge({
  imports: [alarmChangesRef, pbehaviorCreationRef, alarmReaderRef, openAlarmPreviewRef, entityRepositoryRef],
  singletons: [IdleRuleRepository, IdleRuleService, IdleMarkRepository, RuleOperationRunner, IdleRuleEngine],
  exports: [provide(idleRuleServiceRef, IdleRuleService)],
});
