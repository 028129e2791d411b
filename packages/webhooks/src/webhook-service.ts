import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { InferType } from 'yup';
import { HttpError, injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { WebhookSecretBox } from './secret-box.js';
import type { webhookInputSchema } from './schemas.js';
import { WebhookRepository, type StoredAuth, type WebhookRecord } from './webhook-repository.js';

/** A POST or PUT body, validated by the routes' `requestSchema`. */
export type WebhookInput = InferType<typeof webhookInputSchema>;
type AuthInput = WebhookInput['request']['auth'];

/** A webhook as the API shows it: everything but `request.auth`. */
export type WebhookOutput = Omit<WebhookRecord, 'request'> & { request: Omit<WebhookRecord['request'], 'auth'> };

export function webhookOutput(webhook: WebhookRecord): WebhookOutput {
  const { auth: _secret, ...request } = webhook.request;
  return {
    _id: webhook._id,
    enabled: webhook.enabled,
    disable_if_active_pbehavior: webhook.disable_if_active_pbehavior,
    hook: webhook.hook,
    request,
    ...(webhook.retry === undefined ? {} : { retry: webhook.retry }),
    ...(webhook.declare_ticket === undefined ? {} : { declare_ticket: webhook.declare_ticket }),
    author: webhook.author,
    creation_date: webhook.creation_date,
    last_update_date: webhook.last_update_date,
  };
}

export function webhookNotFound(id: string): HttpError {
  return new HttpError(404, `No webhook found with ID ${id}`);
}

/** `{a: undefined}` ⇒ `{}`: optional fields the body left out (or set to null) are not stored. */
function present<T extends object>(fields: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)) as { [K in keyof T]?: NonNullable<T[K]> };
}

@injectable()
export class WebhookService {
  constructor(
    @inject(WebhookRepository) private readonly webhooks: WebhookRepository,
    @inject(WebhookSecretBox) private readonly secrets: WebhookSecretBox,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** The webhook a body describes, as it would be stored now without its credentials (the preview's webhook). */
  draft(input: WebhookInput, author: string): WebhookRecord {
    const now = this.clock.nowSec();
    return this.#record(input._id?.trim() ?? randomUUID(), input, undefined, { author, creation_date: now, last_update_date: now });
  }

  async create(input: WebhookInput, author: string): Promise<{ _id: string }> {
    const now = this.clock.nowSec();
    const id = input._id?.trim() ?? randomUUID();
    await this.webhooks.insert(this.#record(id, input, this.#auth(input.request.auth, undefined), { author, creation_date: now, last_update_date: now }));
    this.logger.info({ webhook: id, user: author }, 'webhook created');
    return { _id: id };
  }

  async get(id: string): Promise<WebhookOutput> {
    const webhook = await this.webhooks.get(id);
    if (!webhook) throw webhookNotFound(id);
    return webhookOutput(webhook);
  }

  async list(): Promise<WebhookOutput[]> {
    return (await this.webhooks.list()).map(webhookOutput);
  }

  /**
   * Full replacement (REFERENCE §3.6) that keeps `creation_date`, refreshes `last_update_date` and records the editor.
   * Credentials are the exception, since GET never shows them: see `#auth`.
   */
  async update(id: string, input: WebhookInput, author: string): Promise<Record<string, never>> {
    const existing = await this.webhooks.get(id);
    if (!existing) throw webhookNotFound(id);
    if (input._id !== undefined && input._id.trim() !== id) throw new HttpError(400, 'the _id field should not be modified');
    const now = this.clock.nowSec();
    // A webhook written before Vigie may lack its creation date: the time of this update stands in for it.
    const provenance = { author, creation_date: existing.creation_date ?? now, last_update_date: now };
    if (!(await this.webhooks.replace(this.#record(id, input, this.#auth(input.request.auth, existing.request.auth), provenance)))) throw webhookNotFound(id);
    this.logger.info({ webhook: id, user: author }, 'webhook updated');
    return {};
  }

  async delete(id: string, author: string): Promise<{ status: true }> {
    if (await this.webhooks.delete(id)) {
      this.logger.info({ webhook: id, user: author }, 'webhook deleted');
    }
    return { status: true };
  }

  /**
   * Credentials to store. `request.auth` left out keeps the stored credentials (a GET ⇒ PUT round trip must not
   * drop them); `null` removes them; a `password` left out keeps the stored one (a form's blank password field).
   */
  #auth(sent: AuthInput, stored: StoredAuth | undefined): StoredAuth | undefined {
    if (sent === undefined) return stored;
    if (sent === null) return undefined;
    if (sent.password !== undefined) return { username: sent.username, password: this.secrets.seal(sent.password) };
    return { username: sent.username, ...(stored?.password === undefined ? {} : { password: stored.password }) };
  }

  #record(id: string, input: WebhookInput, auth: StoredAuth | undefined, provenance: Pick<WebhookRecord, 'author' | 'creation_date' | 'last_update_date'>): WebhookRecord {
    const { hook, request, retry, declare_ticket: declareTicket } = input;
    return {
      _id: id,
      enabled: input.enabled ?? true,
      disable_if_active_pbehavior: input.disable_if_active_pbehavior ?? false,
      hook: { triggers: hook.triggers as WebhookRecord['hook']['triggers'], ...present({ event_patterns: hook.event_patterns, entity_patterns: hook.entity_patterns, alarm_patterns: hook.alarm_patterns }) },
      request: {
        method: request.method.toUpperCase() as WebhookRecord['request']['method'],
        url: request.url,
        ...present({ headers: request.headers as Record<string, string> | null | undefined, payload: request.payload, auth }),
      },
      ...present({ retry: retry ? present(retry) : retry, declare_ticket: declareTicket as Record<string, string | boolean> | null | undefined }),
      ...provenance,
    };
  }
}
