import { defineFeature } from '@vigie/kernel';
import { broadcastBridge } from './di.js';
import { broadcastErrors } from './errors.js';
import { broadcastRoutes } from './routes.js';
import { broadcastMessageCollection } from './broadcast-message-repository.js';

/** Broadcast messages: information banners the interface displays during their window (`broadcast_message`). */
export const broadcastFeature = defineFeature({
  id: 'broadcast',
  kernel: '^0.1.0',
  register(f) {
    f.use(broadcastBridge);
    f.collection(broadcastMessageCollection);
    f.errors(broadcastErrors);
    for (const route of broadcastRoutes) f.route(route);
  },
});
