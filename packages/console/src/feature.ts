import { defineFeature, kernelRefs } from '@vigie/kernel';
import { providerChainRef } from '@vigie/auth';
import { ConsoleAssets } from './console-assets.js';
import { consoleBridge } from './di.js';
import { consoleExtensionsPoint } from './refs.js';
import { consoleRoutes } from './routes.js';
import { savedFilterRoutes } from './saved-filter-routes.js';
import { savedFilterCollection } from './saved-filters.js';

/** Serves the operators' web application at `/`, behind the login page of the auth feature. */
export const consoleFeature = defineFeature({
  id: 'console',
  kernel: '^0.1.0',
  dependsOn: ['auth'],
  register(f) {
    f.use(consoleBridge);
    f.consume(providerChainRef);
    f.extensionPoint(consoleExtensionsPoint);
    f.collection(savedFilterCollection, { indexes: [{ keys: { user: 1, name: 1 } }] });
    for (const route of [...consoleRoutes, ...savedFilterRoutes]) f.route(route);
    f.onStart((scope) => {
      if (scope.resolve(ConsoleAssets).index() === null) {
        scope.resolve(kernelRefs.logger).warn('the console is not built: its pages answer 503 until `pnpm run build` builds it');
      }
    });
  },
});
