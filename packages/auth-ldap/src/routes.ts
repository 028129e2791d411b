import { identityRecordRoutes } from '@vigie/auth';
import type { VigieContext } from '@vigie/kernel';
import { LdapConfigRepository } from './ldap-config-repository.js';
import { ldapRecordInputSchema, ldapRecordSchema } from './schemas.js';

export const ldapRoutes = identityRecordRoutes({
  path: '/rest/object/ldapconfig/cservice.ldapconfig',
  name: 'directory configuration',
  inputSchema: ldapRecordInputSchema,
  recordSchema: ldapRecordSchema,
  post: {
    summary: 'Store the directory (LDAP) configuration',
    description:
      'Replaces the `cservice.ldapconfig` record. `ldap_uri` or the obsolete `host` and `port` name the directory. ' +
      '`admin_passwd` is stored encrypted and answered masked; leave it out (or send it masked) to keep the stored one. ' +
      'Requires the right `identity:write` (the built-in administrator role has it).',
    answer: 'The stored record, password masked',
  },
  get: {
    summary: 'Read the directory (LDAP) configuration',
    description: 'The stored record with `admin_passwd` masked; `data` is empty when none is stored.',
    answer: 'The stored record, password masked',
  },
  tags: ['auth'],
  store: (ctx: VigieContext) => ctx.state.scope.resolve(LdapConfigRepository),
});
