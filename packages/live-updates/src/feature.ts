import { defineFeature, kernelRefs } from '@vigie/kernel';
import { alarmChangedEvent } from '@vigie/alarms';
import { onAlarmChanged } from './alarm-feed.js';
import { BroadcastFeed } from './broadcast-feed.js';
import { liveUpdatesBridge } from './di.js';
import { NoticeRelay } from './notice-relay.js';
import { liveUpdateRoutes } from './routes.js';
import { AlarmStreamHub, BroadcastStreamHub, StreamService } from './stream-service.js';

/** How long the start waits for the broker before serving streams anyway. */
const brokerWaitMs = 5000;

/**
 * Live updates: server-sent event streams of alarm changes (`GET /api/v2/alarms/stream`, carried between nodes by
 * RabbitMQ when `[amqp] url` is set) and of the active broadcast messages (`GET /api/v2/broadcast-message/stream`).
 */
export const liveUpdatesFeature = defineFeature({
  id: 'live-updates',
  kernel: '^0.1.0',
  dependsOn: ['alarms', 'broadcast', 'events-amqp'],
  register(f) {
    f.use(liveUpdatesBridge);
    f.consume(alarmChangedEvent);
    for (const route of liveUpdateRoutes) f.route(route);
    let stopListening: (() => void) | undefined;
    f.onInit((c) => {
      stopListening = c.resolve(kernelRefs.eventBus).on(alarmChangedEvent, onAlarmChanged(c.resolve(NoticeRelay)));
    });
    f.onStart(async (c) => {
      const relay = c.resolve(NoticeRelay);
      await relay.start();
      await relay.ready(brokerWaitMs);
      await c.resolve(BroadcastFeed).start();
    });
    // Open streams end before the server waits for its connections, so a stop is prompt.
    f.onBeforeShutdown(async (c) => {
      stopListening?.();
      c.resolve(BroadcastFeed).stop();
      c.resolve(AlarmStreamHub).endAll();
      c.resolve(BroadcastStreamHub).endAll();
      c.resolve(StreamService).endAll();
      await c.resolve(NoticeRelay).stop();
    });
  },
});
