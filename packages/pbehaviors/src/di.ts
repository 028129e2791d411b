import { defineBridge } from '@vigie/kernel';
import { ActivePbehaviors } from './active-pbehaviors.js';
import { PbehaviorIndex } from './pbehavior-index.js';
import { PbehaviorRepository } from './pbehavior-repository.js';
import { PbehaviorCreation } from './pbehavior-creation.js';
import { PbehaviorService } from './pbehavior-service.js';

/** The pbehaviors feature's class graph (tsyringe) and what awilix sees of it. */
export const pbehaviorsBridge = defineBridge({
  singletons: [PbehaviorRepository, PbehaviorIndex, PbehaviorService, ActivePbehaviors, PbehaviorCreation],
  exports: {
    pbehaviorRepository: PbehaviorRepository,
    pbehaviorService: PbehaviorService,
    activePbehaviors: ActivePbehaviors,
    pbehaviorCreation: PbehaviorCreation,
  },
});
