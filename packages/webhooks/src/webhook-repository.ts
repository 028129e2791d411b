import { collectionRef, type Doc } from '@vigie/kernel';
import { documentRepositoryClass, type DocumentRepository } from '@vigie/feature-kit';
import type { InferType } from 'yup';
import type { webhookSchema } from './schemas.js';

/** A webhook as the API shows it (`webhookSchema`). */
type Webhook = InferType<typeof webhookSchema>;

/** Credentials as stored: the password is sealed by `WebhookSecretBox` (absent when none was given). */
export interface StoredAuth {
  username: string;
  password?: string;
}

/**
 * A webhook as stored in `webhooks`, in the shape the webhook engine reads (REFERENCE §5.10): what the API shows,
 * plus the credentials it never returns. The headers are a map of strings, which a yup object cannot say.
 */
export interface WebhookRecord extends Doc, Omit<Webhook, 'request'> {
  request: Omit<Webhook['request'], 'headers'> & { headers?: Record<string, string>; auth?: StoredAuth };
}

export const webhookCollection = collectionRef<WebhookRecord>('webhooks');

/** The webhooks in `webhooks`, by id. */
export const WebhookRepository = documentRepositoryClass(webhookCollection, { order: { _id: 1 } });
export type WebhookRepository = DocumentRepository<WebhookRecord>;
