import { defineFeature } from '@vigie/kernel';
import { authProvidersPoint, sessionsRef } from '@vigie/auth';
import { casConfig, type CasConfig } from './config.js';
import { CasProvider } from './cas-provider.js';
import { casBridge } from './di.js';
import { casRoutes } from './routes.js';
import { usedTicketCollection } from './cas-client.js';

/**
 * CAS single sign-on (`cas` in `[auth] providers`): the `/auth/cas/login` flow validating service tickets with
 * `serviceValidate`, a button on the login page, and the `/rest/object/casconfig` route that configures it.
 */
export const authCasFeature = defineFeature<CasConfig>({
  id: 'auth-cas',
  kernel: '^0.1.0',
  dependsOn: ['auth'],
  config: casConfig,
  register(f) {
    f.use(casBridge);
    f.collection(usedTicketCollection);
    f.consume(sessionsRef);
    f.extend(authProvidersPoint, (c) => c.resolve(CasProvider));
    for (const route of casRoutes) f.route(route);
  },
});
