export { actionsFeature } from './feature.js';
export { ActionService, actionDetail, publicAction } from './action-service.js';
export type { ActionRecord, Pattern } from './action-repository.js';
export { actionBodySchema, actionTriggers, actionTypes, type Action, type ActionBody, type ActionDetail, type ActionHook } from './schemas.js';
export { ActionEngine, delayedActionJob, type DelayedActionData } from './action-engine.js';
export { RuleOperationRunner, type RuleOperation, type RuleOperationOrigin } from './rule-operation.js';
export { actionServiceRef } from './refs.js';
