import { defineFeature } from '@vigie/kernel';
import { openApiBridge } from './di.js';
import { openApiRoutes } from './routes.js';

/** Serves `GET /api/v2/openapi.json`, generated from every composed route and its yup schemas. */
export const openApiFeature = defineFeature({
  id: 'openapi',
  kernel: '^0.1.0',
  register(f) {
    f.use(openApiBridge);
    for (const route of openApiRoutes) f.route(route);
  },
});
