import { defineFeature, kernelRefs } from '@vigie/kernel';
import { authConfig, type AuthConfig } from './config.js';
import { authBridge } from './di.js';
import { ProviderChain } from './provider-chain.js';
import { accountRoutes } from './routes.js';
import { administrationRoutes } from './admin-routes.js';
import { ApiKeyProvider } from './providers/api-keys.js';
import { LocalUserProvider } from './providers/local-users.js';
import { authProvidersPoint, usersChangedEvent } from './refs.js';
import { UserAdministration } from './user-administration.js';
import { UserRepository } from './user-repository.js';
import { ApiKeyRepository } from './api-key-repository.js';
import { identityRecordCollection } from './identity-record-store.js';
import { sessionCollection } from './sessions.js';
import { apiKeyCollection } from './api-key-repository.js';
import { userCollection } from './user-repository.js';
import { roleCollection } from './roles.js';

/** How the first administrator's generated password reaches the operator: printed once, never logged. */
export function printGeneratedPassword(name: string, password: string): void {
  process.stdout.write(
    `\n  Vigie created the administrator account "${name}" with the password:\n\n      ${password}\n\n` +
      '  It is shown only this once. Change it with `vigie user passwd`, or set VIGIE_ADMIN_USER and\n' +
      '  VIGIE_ADMIN_PASSWORD before the first start.\n\n',
  );
}

/**
 * Authentication: the provider chain named by `[auth] providers`, local users over HTTP Basic, API keys, login
 * sessions (`POST /auth`, `GET /logout`, the `/login` page), and the `auth.providers` extension point through
 * which LDAP, CAS and SAML2 add their providers. Exports `sessionsRef` (open one after a browser sign-on),
 * `userAdministrationRef` (`signOnExternal`) and `providerChainRef` to those packages.
 */
export const authFeature = defineFeature<AuthConfig>({
  id: 'auth',
  kernel: '^0.1.0',
  config: authConfig,
  register(f) {
    f.use(authBridge);
    f.collection(sessionCollection);
    f.collection(apiKeyCollection);
    f.collection(userCollection);
    f.collection(roleCollection);
    f.collection(identityRecordCollection);
    f.event(usersChangedEvent);
    f.extensionPoint(authProvidersPoint);
    f.extend(authProvidersPoint, (c) => c.resolve(LocalUserProvider));
    f.extend(authProvidersPoint, (c) => c.resolve(ApiKeyProvider));
    f.authenticator((c) => c.resolve(ProviderChain));
    for (const route of [...accountRoutes, ...administrationRoutes]) f.route(route);

    f.onInit(async (c) => {
      const chain = c.resolve(ProviderChain);
      chain.providers();
      c.resolve(kernelRefs.eventBus).on(usersChangedEvent, () => chain.forgetCredentials());
      // Users and keys changed on another node sharing the store: remembered credentials are checked again at once.
      c.resolve(UserRepository).watch(() => chain.forgetCredentials());
      c.resolve(ApiKeyRepository).watch(() => chain.forgetCredentials());
      const created = await c
        .resolve(UserAdministration)
        .ensureAdministrator(c.resolve(kernelRefs.env), f.config.admin_role);
      if (created) {
        c.resolve(kernelRefs.logger).info({ user: created.name }, 'created the first administrator account');
        if (created.generatedPassword) printGeneratedPassword(created.name, created.generatedPassword);
      }
    });
  },
});
