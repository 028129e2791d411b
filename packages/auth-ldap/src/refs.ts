import { serviceRef } from '@vigie/kernel';
import { type SecretBox } from '@vigie/feature-kit';

/** The box sealing the bind password at rest (this feature's own service, injected into its bridge). */
export const ldapSecretBoxRef = serviceRef<SecretBox>('auth-ldap.secretBox');
