import { defineBridge } from '@vigie/kernel';
import { pbehaviorCreationToken } from '@vigie/pbehaviors';
import { ActionEngine, ActionEngineTokens } from './action-engine.js';
import { ActionRepository } from './action-repository.js';
import { ActionService } from './action-service.js';
import { RuleOperationRunner, RuleOperationTokens } from './rule-operation.js';

/** The actions feature's class graph (tsyringe) and what awilix sees of it. */
export const actionsBridge = defineBridge({
  imports: {
    alarmChanges: RuleOperationTokens.AlarmChanges,
    pbehaviorCreation: pbehaviorCreationToken,
    alarmReader: ActionEngineTokens.AlarmReader,
    entityRepository: ActionEngineTokens.EntityRepository,
  },
  singletons: [ActionRepository, ActionService, RuleOperationRunner, ActionEngine],
  exports: { actionService: ActionService, actionEngine: ActionEngine },
});
