import { defineBridge } from '@vigie/kernel';
import { LdapConfigRepository } from './ldap-config-repository.js';
import { LdapDirectory } from './ldap-directory.js';
import { LdapProvider } from './ldap-provider.js';
import { LdapTokens } from './tokens.js';

/** The LDAP feature's class graph (tsyringe) and what awilix sees of it. */
export const ldapBridge = defineBridge({
  imports: { userAdministration: LdapTokens.UserAdministration, ldapSecretBox: LdapTokens.SecretBox },
  singletons: [LdapConfigRepository, LdapDirectory, LdapProvider],
  exports: { ldapConfigRepository: LdapConfigRepository, ldapProvider: LdapProvider },
});
