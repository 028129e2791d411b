import { defineBridge } from '@vigie/kernel';
import { activePbehaviorsToken } from '@vigie/pbehaviors';
import { WatcherEngine } from './watcher-engine.js';
import { WatcherSelection } from './watcher-selection.js';
import { WeatherRepository } from './weather-repository.js';
import { WeatherService } from './weather-service.js';
import { WeatherTokens } from './tokens.js';

/** The weather feature's class graph (tsyringe) and what awilix sees of it. */
export const weatherBridge = defineBridge({
  imports: {
    activePbehaviors: activePbehaviorsToken,
    alarmReader: WeatherTokens.AlarmReader,
    alarmChanges: WeatherTokens.AlarmChanges,
    entityRepository: WeatherTokens.EntityRepository,
  },
  singletons: [WeatherRepository, WatcherSelection, WeatherService, WatcherEngine],
  exports: { weatherService: WeatherService, weatherRepository: WeatherRepository, watcherEngine: WatcherEngine },
});
