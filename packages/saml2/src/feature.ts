import { defineFeature } from '@vigie/kernel';
import { authProvidersPoint, providerChainRef, sessionsRef } from '@vigie/auth';
import { saml2Config, type Saml2Config } from './config.js';
import { saml2Bridge } from './di.js';
import { Saml2Provider } from './saml2-provider.js';
import { saml2Routes } from './routes.js';
import { usedResponseCollection } from './saml2-service.js';

/**
 * SAML2 single sign-on (service provider, @node-saml/node-saml): the spec's `/auth/saml2/metadata/`, `/acs/` and
 * `/sls/` routes plus a login redirect, switched on by `[webservices] saml2 = 1`, set up by `vigie saml2 import`.
 */
export const saml2Feature = defineFeature<Saml2Config>({
  id: 'saml2',
  kernel: '^0.1.0',
  dependsOn: ['auth'],
  config: saml2Config,
  register(f) {
    f.use(saml2Bridge);
    f.collection(usedResponseCollection);
    f.consume(providerChainRef, sessionsRef);
    f.extend(authProvidersPoint, (c) => c.resolve(Saml2Provider));
    // Declared always (so the OpenAPI document lists them); they answer 404 while SAML2 is switched off.
    for (const route of saml2Routes) f.route(route);
  },
});
