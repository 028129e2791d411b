/** tsyringe tokens of what the weather imports from the features it depends on. */
export const WeatherTokens = {
  AlarmReader: Symbol.for('weather.AlarmReader'),
} as const;
