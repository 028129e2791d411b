import { serviceRef } from '@vigie/kernel';
import type { ActivePbehaviors } from './active-pbehaviors.js';
import type { PbehaviorCreation } from './pbehavior-creation.js';

/** "Is this entity paused now": the pbehaviors active at a time. */
export const activePbehaviorsRef = serviceRef<ActivePbehaviors>('pbehaviors.active');

/** Pbehaviors made by the rule engines (actions, idle rules). */
export const pbehaviorCreationRef = serviceRef<PbehaviorCreation>('pbehaviors.creation');
