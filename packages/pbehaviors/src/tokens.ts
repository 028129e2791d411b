/** The token under which dependents import the `activePbehaviors` service into their tsyringe graph. */
export const activePbehaviorsToken = Symbol.for('pbehaviors.ActivePbehaviors');
