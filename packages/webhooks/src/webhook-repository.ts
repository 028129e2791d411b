import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type Doc, type Store } from '@vigie/kernel';

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

@injectable()
export class WebhookRepository {
  readonly #webhooks: Collection<WebhookRecord>;

  constructor(@injectRef(kernelRefs.store) store: Store) {
    this.#webhooks = store.collection<WebhookRecord>('webhooks');
  }

  /** Throws a `DUPLICATE_KEY` error when the id is taken. */
  insert(webhook: WebhookRecord): Promise<void> {
    return this.#webhooks.insertOne(webhook);
  }

  get(id: string): Promise<WebhookRecord | null> {
    return this.#webhooks.findOne({ _id: id });
  }

  list(): Promise<WebhookRecord[]> {
    return this.#webhooks.find({}, { sort: { _id: 1 } });
  }

  /** Full replacement; false when no webhook has that id. */
  async replace(webhook: WebhookRecord): Promise<boolean> {
    return (await this.#webhooks.replaceOne({ _id: webhook._id }, webhook)).matchedCount === 1;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.#webhooks.deleteOne({ _id: id })).deletedCount === 1;
  }
}
