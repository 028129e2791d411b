import { documentRepositoryClass, type DocumentRepository, type Doc } from '@vigie/kernel';

type PatternList = Record<string, unknown>[] | null;

/** Credentials as stored: the password is sealed by `WebhookSecretBox` (absent when none was given). */
export interface StoredAuth {
  username: string;
  password?: string;
}

/** A webhook as stored in `webhooks`, in the shape the webhook engine reads (REFERENCE §5.10). */
export interface WebhookRecord extends Doc {
  _id: string;
  enabled: boolean;
  disable_if_active_pbehavior: boolean;
  hook: { triggers: string[]; event_patterns?: PatternList; entity_patterns?: PatternList; alarm_patterns?: PatternList };
  request: { method: string; url: string; headers?: Record<string, string>; payload?: string; auth?: StoredAuth };
  retry?: { count?: number; delay?: number; unit?: string };
  declare_ticket?: Record<string, string | boolean>;
  author: string;
  creation_date: number;
  last_update_date: number;
}

/** The webhooks in `webhooks`, by id. */
export const WebhookRepository = documentRepositoryClass<WebhookRecord>('webhooks', { order: { _id: 1 } });
export type WebhookRepository = DocumentRepository<WebhookRecord>;
