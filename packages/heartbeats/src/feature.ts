import { defineFeature } from '@vigie/kernel';
import { heartbeatsBridge } from './di.js';
import { heartbeatErrors } from './errors.js';
import { heartbeatRoutes } from './routes.js';

/** Heartbeats: the expected event interval of each connector, kept in `heartbeat` for the heartbeat engine. */
export const heartbeatsFeature = defineFeature({
  id: 'heartbeats',
  kernel: '^0.1.0',
  register(f) {
    f.use(heartbeatsBridge, { export: ['heartbeatService'] });
    f.errors(heartbeatErrors);
    for (const route of heartbeatRoutes) f.route(route);
  },
});
