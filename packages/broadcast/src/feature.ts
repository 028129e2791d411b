import { defineFeature } from '@vigie/kernel';
import { broadcastBridge } from './di.js';
import { broadcastErrors } from './errors.js';
import { broadcastRoutes } from './routes.js';

/** Broadcast messages: information banners the interface displays during their window (`broadcast_message`). */
export const broadcastFeature = defineFeature({
  id: 'broadcast',
  kernel: '^0.1.0',
  register(f) {
    f.use(broadcastBridge);
    f.collection('broadcast_message');
    f.errors(broadcastErrors);
    for (const route of broadcastRoutes) f.route(route);
  },
});
