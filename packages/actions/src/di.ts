import { defineBridge } from '@vigie/kernel';
import { ActionRepository } from './action-repository.js';
import { ActionService } from './action-service.js';

/** The actions feature's class graph (tsyringe) and what awilix sees of it. */
export const actionsBridge = defineBridge({
  singletons: [ActionRepository, ActionService],
  exports: { actionService: ActionService },
});
