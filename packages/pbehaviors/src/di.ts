import { defineBridge, provide } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef } from '@vigie/alarms';
import { entityReaderRef } from '@vigie/context-graph';
import { ActivePbehaviors } from './active-pbehaviors.js';
import { PbehaviorAlarmEngine } from './pbehavior-alarms.js';
import { PbehaviorCalendar } from './pbehavior-calendar.js';
import { PbehaviorIndex } from './pbehavior-index.js';
import { PbehaviorRepository } from './pbehavior-repository.js';
import { PbehaviorCreation } from './pbehavior-creation.js';
import { PbehaviorService } from './pbehavior-service.js';
import { activePbehaviorsRef, pbehaviorCreationRef } from './refs.js';

/** The pbehaviors feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const pbehaviorsBridge = defineBridge({
  imports: [alarmChangesRef, alarmReaderRef, entityReaderRef],
  singletons: [PbehaviorRepository, PbehaviorIndex, PbehaviorService, PbehaviorCalendar, ActivePbehaviors, PbehaviorCreation, PbehaviorAlarmEngine],
  exports: [provide(activePbehaviorsRef, ActivePbehaviors), provide(pbehaviorCreationRef, PbehaviorCreation)],
});
