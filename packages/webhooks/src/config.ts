import { object, string, type InferType } from 'yup';

/** A 256-bit key written in base64, or null when the text is not one. */
export function decodeSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === 32 ? key : null;
}

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
