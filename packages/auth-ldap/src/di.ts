import { defineBridge } from '@vigie/kernel';
import { LdapConfigRepository } from './ldap-config-repository.js';
import { LdapDirectory } from './ldap-directory.js';
import { LdapProvider } from './ldap-provider.js';
import { identityRecordsRef, userAdministrationRef } from '@vigie/auth';
import { ldapSecretBoxRef } from './refs.js';

/** The LDAP feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const ldapBridge = defineBridge({
  imports: [userAdministrationRef, identityRecordsRef, ldapSecretBoxRef],
  singletons: [LdapConfigRepository, LdapDirectory, LdapProvider],
});
