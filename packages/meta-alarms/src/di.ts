import { defineBridge, provide } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef } from '@vigie/alarms';
import { entityRepositoryRef } from '@vigie/context-graph';
import { eventIntakeRef } from '@vigie/events';
import { CorrelationEngine } from './correlation-engine.js';
import { CorrelationGroupRepository } from './correlation-groups.js';
import { MetaAlarmRuleRepository } from './meta-alarm-rule-repository.js';
import { MetaAlarmRuleService } from './meta-alarm-rule-service.js';
import { metaAlarmRuleServiceRef } from './refs.js';
import { MetaAlarmRulePreviewService } from './rule-preview.js';
import { RuleCatalog } from './rule-catalog.js';

/** The meta-alarms feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const metaAlarmsBridge = defineBridge({
  imports: [alarmChangesRef, alarmReaderRef, openAlarmPreviewRef, entityRepositoryRef, eventIntakeRef],
  singletons: [MetaAlarmRuleRepository, CorrelationGroupRepository, MetaAlarmRuleService, RuleCatalog, CorrelationEngine, MetaAlarmRulePreviewService],
  exports: [provide(metaAlarmRuleServiceRef, MetaAlarmRuleService)],
});
