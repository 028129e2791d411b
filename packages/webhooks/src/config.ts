import { number, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { durationSeconds, durationSetting as duration } from '@vigie/input';
import { decodeSecretKey } from '@vigie/feature-kit';

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
  /** Retries after a failed attempt when the webhook's `retry.count` is not set (REFERENCE §5.10: 5). */
  retry_count: number().typeError('retry_count must be an integer ≥ 0').integer('retry_count must be an integer ≥ 0').min(0, 'retry_count must be an integer ≥ 0').default(5),
  /** Time between attempts, in `retry_unit`, when the webhook's `retry.delay` is not set. */
  retry_delay: number().typeError('retry_delay must be an integer ≥ 0').integer('retry_delay must be an integer ≥ 0').min(0, 'retry_delay must be an integer ≥ 0').default(1),
  /** Unit of `retry_delay` (and of a webhook's `retry.delay` without unit): s, m or h. */
  retry_unit: string().oneOf(['s', 'm', 'h'], 'retry_unit must be one of s, m, h').default('m'),
  /** How long one attempt may take, answer body included, before it counts as failed (a timeout). */
  request_timeout: duration('request_timeout', '30s'),
  /** Finished deliveries (succeeded, failed, skipped) older than this are deleted; 0s keeps them forever. */
  delivery_retention: duration('delivery_retention', '30d'),
});

/** Seconds of a duration the schema accepted. */
export function seconds(text: string): number {
  return durationSeconds(text) ?? 0;
}

export type WebhooksConfig = InferType<typeof webhooksConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const webhooksConfig = featureConfig(webhooksConfigSchema);
