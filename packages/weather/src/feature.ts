import { defineFeature, kernelRefs } from '@vigie/kernel';
import { entitiesChangedEvent } from '@vigie/context-graph';
import { alarmTriggerEvent } from '@vigie/alarms';
import { registerEngineBeat } from '@vigie/events';
import { weatherBridge } from './di.js';
import { WatcherEngine } from './watcher-engine.js';
import { weatherErrors } from './errors.js';
import { weatherRoutes } from './routes.js';

/**
 * Service weather: watcher tiles and their dependencies, coloured by the live alarms and paused by active pbehaviors;
 * and the watcher engine, which keeps each watcher's dependencies and alarm current (`context-graph.entities-changed`,
 * `alarms.trigger`, and a beat every `[engine] beat_interval`).
 */
export const weatherFeature = defineFeature({
  id: 'weather',
  kernel: '^0.1.0',
  dependsOn: ['events', 'context-graph', 'pbehaviors', 'alarms'],
  register(f) {
    f.use(weatherBridge);
    f.consume(alarmTriggerEvent, entitiesChangedEvent);
    f.errors(weatherErrors);
    for (const route of weatherRoutes) f.route(route);

    const stopListening: (() => void)[] = [];
    f.onInit((c) => {
      const engine = c.resolve(WatcherEngine);
      const bus = c.resolve(kernelRefs.eventBus);
      stopListening.push(
        bus.on(entitiesChangedEvent, ({ ids }) => engine.entitiesChanged(ids)),
        bus.on(alarmTriggerEvent, (payload) => engine.onTrigger(payload)),
      );
    });
    // The first tick at start picks up what changed while the server was down; it is not awaited, so a large
    // context graph does not hold the start back.
    registerEngineBeat(f, {
      name: 'watchers',
      prepare: async (c) => void c.resolve(WatcherEngine).beat(),
      tick: (c) => c.resolve(WatcherEngine).beat(),
    });
    f.onBeforeShutdown(async (c) => {
      for (const stop of stopListening.splice(0)) stop();
      await c.resolve(WatcherEngine).idle();
    });
  },
});
