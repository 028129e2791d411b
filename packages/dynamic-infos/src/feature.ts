import { defineFeature } from '@vigie/kernel';
import { dynamicInfosBridge } from './di.js';
import { dynamicInfosErrors } from './errors.js';
import { dynamicInfosRoutes } from './routes.js';

/** Dynamic infos rules: information the engine adds to matching alarms, kept in `dynamic_infos`. */
export const dynamicInfosFeature = defineFeature({
  id: 'dynamic-infos',
  kernel: '^0.1.0',
  register(f) {
    f.use(dynamicInfosBridge, { export: ['dynamicInfosService'] });
    f.errors(dynamicInfosErrors);
    for (const route of dynamicInfosRoutes) f.route(route);
  },
});
