import { boolean, number, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { decodeSecretKey } from '@vigie/feature-kit';

/** `[auth-ldap]` of `etc/webserver.conf`: how Vigie talks to the directory (the record says which directory). */
export const ldapConfigSchema = object({
  /**
   * AES-256-GCM key sealing the bind password at rest: base64 of 32 bytes. When absent, one is generated at first
   * start into `<data dir>/auth-ldap-secret.key` (mode 0600) and reused.
   */
  secret_key: string()
    .optional()
    .test('secret-key', 'secret_key must be the base64 encoding of 32 bytes', (value) => value === undefined || decodeSecretKey(value) !== null),
  /** Milliseconds to open the TCP (or TLS) connection. */
  connect_timeout_ms: number().integer().min(100).max(60_000).default(5000),
  /** Milliseconds each LDAP operation (bind, search) may take. */
  timeout_ms: number().integer().min(100).max(60_000).default(5000),
  /** Upgrade `ldap://` connections with StartTLS before binding. */
  starttls: boolean().default(false),
  /** PEM file of the certificate authorities trusted for `ldaps://` and StartTLS (the system ones otherwise). */
  ca_file: string().optional(),
  /** Check the directory's certificate (turn off only for tests against a throw-away directory). */
  tls_verify: boolean().default(true),
});

export type LdapConfig = InferType<typeof ldapConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const ldapConfig = featureConfig(ldapConfigSchema);
