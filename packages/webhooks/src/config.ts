import { object, string, type InferType } from 'yup';
import { decodeSecretKey } from '@vigie/kernel';

/** `[webhooks]` of `etc/webserver.conf`. */
export const webhooksConfigSchema = object({
  /**
   * The AES-256-GCM key that encrypts `request.auth.password` at rest: base64 of 32 bytes (`openssl rand -base64 32`).
   * When absent, one is generated at first start into `<data dir>/webhooks-secret.key` (mode 0600) and reused.
   */
  secret_key: string()
    .optional()
    // The message never repeats the value: it is a secret.
    .test('secret-key', 'secret_key must be the base64 encoding of 32 bytes', (value) => value === undefined || decodeSecretKey(value) !== null),
});

export type WebhooksConfig = InferType<typeof webhooksConfigSchema>;
