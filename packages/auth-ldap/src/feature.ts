import { join } from 'node:path';
import { defineFeature, kernelRefs } from '@vigie/kernel';
import { SecretBox } from '@vigie/feature-kit';
import { authProvidersPoint } from '@vigie/auth';
import { ldapConfig, type LdapConfig } from './config.js';
import { ldapBridge } from './di.js';
import { LdapProvider } from './ldap-provider.js';
import { ldapSecretBoxRef } from './refs.js';
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
  config: ldapConfig,
  register(f) {
    f.service(
      ldapSecretBoxRef,
      (c) =>
        new SecretBox(
          { key: f.config.secret_key, keyFile: join(c.resolve(kernelRefs.dataDir), ldapSecretKeyFileName), what: 'LDAP bind password' },
          c.resolve(kernelRefs.logger),
        ),
    );
    f.use(ldapBridge);
    f.extend(authProvidersPoint, (c) => c.resolve(LdapProvider));
    for (const route of ldapRoutes) f.route(route);
    f.onInit((c) => c.resolve(ldapSecretBoxRef).load());
  },
});
