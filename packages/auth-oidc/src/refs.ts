import { serviceRef, type SecretBox } from '@vigie/kernel';

/** The box sealing the client secret at rest (this feature's own service, injected into its bridge). */
export const oidcSecretBoxRef = serviceRef<SecretBox>('auth-oidc.secretBox');
