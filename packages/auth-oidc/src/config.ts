import { number, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { decodeSecretKey } from '@vigie/feature-kit';

/** `[auth-oidc]` of `etc/webserver.conf`: how Vigie talks to the OpenID provider (the record says which one). */
export const oidcConfigSchema = object({
  /**
   * AES-256-GCM key sealing the client secret at rest and the logins under way in their cookie: base64 of 32 bytes.
   * When absent, one is generated at first start into `<data dir>/auth-oidc-secret.key` (mode 0600) and reused.
   */
  secret_key: string()
    .optional()
    .test('secret-key', 'secret_key must be the base64 encoding of 32 bytes', (value) => value === undefined || decodeSecretKey(value) !== null),
  /** Milliseconds each request to the provider (discovery, keys, token, userinfo) may take. */
  timeout_ms: number().integer().min(100).max(60_000).default(5000),
});

export type OidcConfig = InferType<typeof oidcConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const oidcConfig = featureConfig(oidcConfigSchema);
