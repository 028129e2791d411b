export { authOidcFeature, oidcSecretKeyFileName } from './feature.js';
export { oidcConfigSchema, type OidcConfig } from './config.js';
export { claimValue } from './oidc-client.js';
export type { PublicOidcRecord } from './oidc-config-repository.js';
