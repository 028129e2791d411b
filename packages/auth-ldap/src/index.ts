export { authLdapFeature, ldapSecretKeyFileName } from './feature.js';
export { ldapConfigSchema, type LdapConfig } from './config.js';
export { escapeFilterValue, userFilter } from './filter.js';
export type { PublicLdapRecord } from './ldap-config-repository.js';
