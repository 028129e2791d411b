import { defineBridge } from '@vigie/kernel';
import { activePbehaviorsToken } from '@vigie/pbehaviors';
import { WeatherRepository } from './weather-repository.js';
import { WeatherService } from './weather-service.js';
import { WeatherTokens } from './tokens.js';

/** The weather feature's class graph (tsyringe) and what awilix sees of it. */
export const weatherBridge = defineBridge({
  imports: { activePbehaviors: activePbehaviorsToken, alarmReader: WeatherTokens.AlarmReader },
  singletons: [WeatherRepository, WeatherService],
  exports: { weatherService: WeatherService, weatherRepository: WeatherRepository },
});
