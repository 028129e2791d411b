export { pbehaviorsFeature } from './feature.js';
export { pbehaviorsConfigSchema, type PbehaviorsConfig } from './config.js';
export { ActivePbehaviors, ActivePbehaviorsAt } from './active-pbehaviors.js';
export { activePbehaviorsRef, pbehaviorCreationRef } from './refs.js';
export { PbehaviorAlarmEngine, canonicalTypeOf, pbehaviorInfoOf, type PbehaviorAlarmReport, type PbehaviorInfo } from './pbehavior-alarms.js';
export { PbehaviorCreation, type EntityPbehaviorSpec } from './pbehavior-creation.js';
export { presentPbehavior, type Activity, type Pbehavior, type PbehaviorComment, type PbehaviorOutput, type PbehaviorRecord } from './pbehavior.js';
export { pbehaviorOutputSchema } from './schemas.js';
export { Schedule, type ScheduleSpec, type Window } from './schedule.js';
