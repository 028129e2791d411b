export { actionsFeature } from './feature.js';
export { ActionService, actionDetail, publicAction, type Action, type ActionDetail } from './action-service.js';
export type { ActionHook, ActionRecord, Pattern } from './action-repository.js';
export { actionBodySchema, actionTriggers, actionTypes, type ActionBody } from './schemas.js';
export { ActionEngine, delayedActionJob, type DelayedActionData } from './action-engine.js';
export { RuleOperationRunner, type RuleOperation, type RuleOperationOrigin } from './rule-operation.js';
export { actionServiceRef } from './refs.js';
