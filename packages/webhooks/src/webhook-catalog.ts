import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { RuleCache } from '@vigie/feature-kit';
import { compileAlarmPatterns, compileEntityPatterns, compileEventPatterns } from '@vigie/patterns';
import { compile, type Template } from '@vigie/templates';
import { WebhookRepository, type WebhookRecord } from './webhook-repository.js';

/** A webhook ready to be matched and rendered: patterns and templates compiled once. */
export interface CompiledWebhook {
  record: WebhookRecord;
  triggers: ReadonlySet<string>;
  eventPatterns: ReturnType<typeof compileEventPatterns> | null;
  entityPatterns: ReturnType<typeof compileEntityPatterns> | null;
  alarmPatterns: ReturnType<typeof compileAlarmPatterns> | null;
  url: Template;
  payload: Template | null;
  headers: [string, Template][];
}

/** What the engine reads of a webhook to match and render it. */
export type WebhookTerms = Pick<WebhookRecord, 'hook'> & { request: Pick<WebhookRecord['request'], 'url' | 'payload' | 'headers'> };

/** The webhook's patterns and templates compiled; throws what does not compile. */
export function compileWebhook({ hook, request }: WebhookTerms): Omit<CompiledWebhook, 'record'> {
  return {
    triggers: new Set(hook.triggers),
    eventPatterns: hook.event_patterns ? compileEventPatterns(hook.event_patterns, 'hook.event_patterns') : null,
    entityPatterns: hook.entity_patterns ? compileEntityPatterns(hook.entity_patterns, 'hook.entity_patterns') : null,
    alarmPatterns: hook.alarm_patterns ? compileAlarmPatterns(hook.alarm_patterns, 'hook.alarm_patterns') : null,
    url: compile(request.url),
    payload: request.payload === undefined ? null : compile(request.payload),
    headers: Object.entries(request.headers ?? {}).map(([name, value]) => [name, compile(value)]),
  };
}

/**
 * The enabled webhooks, compiled, in the feature kit's `RuleCache`: read again after a write through this process,
 * when the store says another node sharing it wrote one (PostgreSQL NOTIFY, MongoDB change streams), and at least
 * every 10 s. A webhook whose patterns or templates do not compile (written before they were checked) is skipped
 * with a warning, once per version.
 */
@injectable()
export class WebhookCatalog {
  readonly #webhooks: RuleCache<WebhookRecord, CompiledWebhook>;

  constructor(
    @inject(WebhookRepository) webhooks: WebhookRepository,
    @injectRef(kernelRefs.clock) clock: Clock,
    @injectRef(kernelRefs.logger) logger: Logger,
  ) {
    const compile = (record: WebhookRecord): CompiledWebhook => ({ record, ...compileWebhook(record) });
    this.#webhooks = new RuleCache({ source: webhooks, compile, kind: 'webhook', logField: 'webhook', clock, logger });
  }

  async enabled(): Promise<CompiledWebhook[]> {
    return (await this.#webhooks.rules()).filter((webhook) => webhook.record.enabled);
  }
}
