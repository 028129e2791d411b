import { defineBridge } from '@vigie/kernel';
import { identityRecordsRef, providerChainRef, userAdministrationRef } from '@vigie/auth';
import { OidcClient } from './oidc-client.js';
import { OidcConfigRepository } from './oidc-config-repository.js';
import { OidcLogin } from './oidc-login.js';
import { OidcProvider } from './oidc-provider.js';
import { oidcSecretBoxRef } from './refs.js';

/** The OpenID Connect feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const oidcBridge = defineBridge({
  imports: [userAdministrationRef, providerChainRef, identityRecordsRef, oidcSecretBoxRef],
  singletons: [OidcConfigRepository, OidcClient, OidcLogin, OidcProvider],
});
