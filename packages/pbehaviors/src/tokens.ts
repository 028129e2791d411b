/** The token under which dependents import the `activePbehaviors` service into their tsyringe graph. */
export const activePbehaviorsToken = Symbol.for('pbehaviors.ActivePbehaviors');

/** The token under which dependents import the `pbehaviorCreation` service (pbehaviors made by rule engines). */
export const pbehaviorCreationToken = Symbol.for('pbehaviors.PbehaviorCreation');

/** The tokens under which the pbehaviors feature imports the alarms feature's services (pbehaviors on alarms). */
export const PbehaviorAlarmTokens = {
  AlarmChanges: Symbol.for('pbehaviors.AlarmChanges'),
  AlarmReader: Symbol.for('pbehaviors.AlarmReader'),
} as const;
