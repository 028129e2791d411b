/** The token under which dependents import the `activePbehaviors` service into their tsyringe graph. */
export const activePbehaviorsToken = Symbol.for('pbehaviors.ActivePbehaviors');

/** The token under which dependents import the `pbehaviorCreation` service (pbehaviors made by rule engines). */
export const pbehaviorCreationToken = Symbol.for('pbehaviors.PbehaviorCreation');
