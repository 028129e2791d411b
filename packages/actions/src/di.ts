import { defineBridge, provide } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef } from '@vigie/alarms';
import { entityRepositoryRef } from '@vigie/context-graph';
import { pbehaviorCreationRef } from '@vigie/pbehaviors';
import { ActionEngine } from './action-engine.js';
import { ActionRepository } from './action-repository.js';
import { DelayedRunRepository } from './delayed-runs.js';
import { ActionService } from './action-service.js';
import { actionServiceRef } from './refs.js';
import { RuleOperationRunner } from './rule-operation.js';

/** The actions feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const actionsBridge = defineBridge({
  imports: [alarmChangesRef, pbehaviorCreationRef, alarmReaderRef, openAlarmPreviewRef, entityRepositoryRef],
  singletons: [ActionRepository, DelayedRunRepository, ActionService, RuleOperationRunner, ActionEngine],
  exports: [provide(actionServiceRef, ActionService)],
});
