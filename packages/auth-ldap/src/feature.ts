import { join } from 'node:path';
import { asFunction } from 'awilix';
import { defineFeature, SecretBox, type Logger } from '@vigie/kernel';
import { authProvidersPoint, type AuthProvider } from '@vigie/auth';
import { ldapConfigSchema, type LdapConfig } from './config.js';
import { ldapBridge } from './di.js';
import { ldapRoutes } from './routes.js';

/** Where the generated key sealing the bind password lives when `[auth-ldap] secret_key` is not set. */
export const ldapSecretKeyFileName = 'auth-ldap-secret.key';

/**
 * Directory logins (`ldap` in `[auth] providers`) with ldapts, and the `/rest/object/ldapconfig` route that
 * configures them. The bind password is sealed at rest with the kernel's SecretBox.
 */
export const authLdapFeature = defineFeature<LdapConfig>({
  id: 'auth-ldap',
  kernel: '^0.1.0',
  dependsOn: ['auth'],
  config: { schema: ldapConfigSchema },
  register(f) {
    f.service(
      'ldapSecretBox',
      asFunction(({ dataDir, logger }: { dataDir: string; logger: Logger }) =>
        new SecretBox({ key: f.config.secret_key, keyFile: join(dataDir, ldapSecretKeyFileName), what: 'LDAP bind password' }, logger),
      ).singleton(),
    );
    f.use(ldapBridge);
    f.extend<AuthProvider>(authProvidersPoint, (c) => c.resolve('ldapProvider'));
    for (const route of ldapRoutes) f.route(route);
    f.onInit((c) => c.resolve<SecretBox>('ldapSecretBox').load());
  },
});
