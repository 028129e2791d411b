import { serviceRef } from '@vigie/kernel';
import { type SecretBox } from '@vigie/feature-kit';

/** The box sealing the client secret at rest and the logins under way in their cookie (this feature's own service). */
export const oidcSecretBoxRef = serviceRef<SecretBox>('auth-oidc.secretBox');
