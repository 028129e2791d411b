/** tsyringe tokens of what the LDAP feature imports from the auth feature. */
export const LdapTokens = {
  UserAdministration: Symbol.for('auth-ldap.UserAdministration'),
  SecretBox: Symbol.for('auth-ldap.SecretBox'),
} as const;
