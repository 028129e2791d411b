import { join } from 'node:path';
import { defineFeature, kernelRefs } from '@vigie/kernel';
import { SecretBox } from '@vigie/feature-kit';
import { authProvidersPoint, sessionsRef } from '@vigie/auth';
import { oidcConfig, type OidcConfig } from './config.js';
import { oidcBridge } from './di.js';
import { OidcProvider } from './oidc-provider.js';
import { oidcSecretBoxRef } from './refs.js';
import { oidcRoutes } from './routes.js';

/** Where the generated key sealing the client secret and login cookies lives when `[auth-oidc] secret_key` is not set. */
export const oidcSecretKeyFileName = 'auth-oidc-secret.key';

/**
 * OpenID Connect sign-on (`oidc` in `[auth] providers`): the authorization code flow with PKCE through
 * openid-client, ID tokens checked against the provider's keys, claims mapped to the user and its roles, a button
 * on the login page, RP-initiated logout, and the `/rest/object/oidcconfig` route that configures it.
 */
export const authOidcFeature = defineFeature<OidcConfig>({
  id: 'auth-oidc',
  kernel: '^0.1.0',
  dependsOn: ['auth'],
  config: oidcConfig,
  register(f) {
    f.service(
      oidcSecretBoxRef,
      (c) =>
        new SecretBox(
          { key: f.config.secret_key, keyFile: join(c.resolve(kernelRefs.dataDir), oidcSecretKeyFileName), what: 'OpenID Connect client secret and login cookie' },
          c.resolve(kernelRefs.logger),
        ),
    );
    f.use(oidcBridge);
    f.consume(sessionsRef);
    f.extend(authProvidersPoint, (c) => c.resolve(OidcProvider));
    for (const route of oidcRoutes) f.route(route);
    f.onInit((c) => c.resolve(oidcSecretBoxRef).load());
  },
});
