import { defineBridge } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef } from '@vigie/alarms';
import { entityReaderRef, entityRepositoryRef } from '@vigie/context-graph';
import { activePbehaviorsRef } from '@vigie/pbehaviors';
import { WatcherEngine } from './watcher-engine.js';
import { WatcherSelection } from './watcher-selection.js';
import { WeatherRepository } from './weather-repository.js';
import { WeatherService } from './weather-service.js';

/** The weather feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const weatherBridge = defineBridge({
  imports: [activePbehaviorsRef, alarmReaderRef, alarmChangesRef, entityRepositoryRef, entityReaderRef],
  singletons: [WeatherRepository, WatcherSelection, WeatherService, WatcherEngine],
});
