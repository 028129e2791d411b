import { defineFeature, type EventBus, type Logger } from '@vigie/kernel';
import { authConfigSchema, type AuthConfig } from './config.js';
import { authBridge } from './di.js';
import type { ProviderChain } from './provider-chain.js';
import type { AuthProvider } from './provider.js';
import { accountRoutes } from './routes.js';
import { authProvidersPoint } from './tokens.js';
import type { UserAdministration } from './user-administration.js';

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
 * which LDAP, CAS and SAML2 add their providers. Exports `sessions` (open one after a browser sign-on),
 * `userAdministration` (`signOnExternal`) and `adminPolicy` to those packages.
 */
export const authFeature = defineFeature<AuthConfig>({
  id: 'auth',
  kernel: '^0.1.0',
  config: { schema: authConfigSchema },
  register(f) {
    f.use(authBridge, { export: ['userAdministration', 'userRepository', 'sessions', 'adminPolicy', 'providerChain'] });
    f.extensionPoint(authProvidersPoint);
    f.extend<AuthProvider>(authProvidersPoint, (c) => c.resolve('localUserProvider'));
    f.extend<AuthProvider>(authProvidersPoint, (c) => c.resolve('apiKeyProvider'));
    f.authenticator((c) => c.resolve<ProviderChain>('providerChain'));
    for (const route of accountRoutes) f.route(route);

    f.onInit(async (c) => {
      const chain = c.resolve<ProviderChain>('providerChain');
      chain.providers();
      c.resolve<EventBus>('eventBus').on('auth.users-changed', () => chain.forgetCredentials());
      const created = await c
        .resolve<UserAdministration>('userAdministration')
        .ensureAdministrator(c.resolve<Record<string, string | undefined>>('env'), f.config.admin_role);
      if (created) {
        c.resolve<Logger>('logger').info({ user: created.name }, 'created the first administrator account');
        if (created.generatedPassword) printGeneratedPassword(created.name, created.generatedPassword);
      }
    });
  },
});
