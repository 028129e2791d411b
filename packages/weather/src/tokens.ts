/** tsyringe tokens of what the weather imports from the features it depends on. */
export const WeatherTokens = {
  AlarmReader: Symbol.for('weather.AlarmReader'),
  AlarmChanges: Symbol.for('weather.AlarmChanges'),
  EntityRepository: Symbol.for('weather.EntityRepository'),
} as const;
