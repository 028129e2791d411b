/** tsyringe tokens of what the alarms feature imports from its dependencies. */
export const AlarmsTokens = {
  EntityRepository: Symbol.for('alarms.EntityRepository'),
} as const;
