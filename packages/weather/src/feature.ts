import { defineFeature } from '@vigie/kernel';
import { weatherBridge } from './di.js';
import type { WeatherRepository } from './weather-repository.js';
import { weatherErrors } from './errors.js';
import { weatherRoutes } from './routes.js';

/** Service weather: watcher tiles and their dependencies, coloured by the live alarms and paused by active pbehaviors. */
export const weatherFeature = defineFeature({
  id: 'weather',
  kernel: '^0.1.0',
  dependsOn: ['pbehaviors', 'alarms'],
  register(f) {
    f.use(weatherBridge);
    f.onInit(async (c) => c.resolve<WeatherRepository>('weatherRepository').ensureIndexes());
    f.errors(weatherErrors);
    for (const route of weatherRoutes) f.route(route);
  },
});
