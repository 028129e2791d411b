import { defineBridge } from '@vigie/kernel';
import { ActivePbehaviors } from './active-pbehaviors.js';
import { PbehaviorAlarmEngine } from './pbehavior-alarms.js';
import { PbehaviorIndex } from './pbehavior-index.js';
import { PbehaviorRepository } from './pbehavior-repository.js';
import { PbehaviorCreation } from './pbehavior-creation.js';
import { PbehaviorService } from './pbehavior-service.js';
import { PbehaviorAlarmTokens } from './tokens.js';

/** The pbehaviors feature's class graph (tsyringe) and what awilix sees of it. */
export const pbehaviorsBridge = defineBridge({
  imports: { alarmChanges: PbehaviorAlarmTokens.AlarmChanges, alarmReader: PbehaviorAlarmTokens.AlarmReader },
  singletons: [PbehaviorRepository, PbehaviorIndex, PbehaviorService, ActivePbehaviors, PbehaviorCreation, PbehaviorAlarmEngine],
  exports: {
    pbehaviorRepository: PbehaviorRepository,
    pbehaviorService: PbehaviorService,
    activePbehaviors: ActivePbehaviors,
    pbehaviorCreation: PbehaviorCreation,
    pbehaviorAlarmEngine: PbehaviorAlarmEngine,
  },
});
