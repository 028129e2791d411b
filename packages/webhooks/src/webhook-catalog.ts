import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, errorDetail, type Logger } from '@vigie/kernel';
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

/** How long the compiled list is trusted before it is read again (writes of this process refresh it at once). */
const refreshMs = 10_000;

/**
 * The enabled webhooks, compiled. Read again after every write through this process's API, and at least every
 * 10 s, so that webhooks written through another node sharing the store are seen too. A webhook whose patterns or
 * templates do not compile (written before they were checked) is skipped with a warning.
 */
@injectable()
export class WebhookCatalog {
  #loaded: Promise<CompiledWebhook[]> | null = null;
  #loadedAt = 0;

  constructor(
    @inject(WebhookRepository) private readonly webhooks: WebhookRepository,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  invalidate(): void {
    this.#loaded = null;
  }

  enabled(): Promise<CompiledWebhook[]> {
    if (this.#loaded === null || Date.now() - this.#loadedAt > refreshMs) {
      this.#loadedAt = Date.now();
      const loading = this.#load();
      this.#loaded = loading;
      loading.catch(() => {
        if (this.#loaded === loading) this.#loaded = null;
      });
    }
    return this.#loaded;
  }

  async #load(): Promise<CompiledWebhook[]> {
    const compiled: CompiledWebhook[] = [];
    for (const record of await this.webhooks.list()) {
      if (!record.enabled) continue;
      try {
        const { hook, request } = record;
        compiled.push({
          record,
          triggers: new Set<string>(hook.triggers),
          eventPatterns: hook.event_patterns ? compileEventPatterns(hook.event_patterns, 'hook.event_patterns') : null,
          entityPatterns: hook.entity_patterns ? compileEntityPatterns(hook.entity_patterns, 'hook.entity_patterns') : null,
          alarmPatterns: hook.alarm_patterns ? compileAlarmPatterns(hook.alarm_patterns, 'hook.alarm_patterns') : null,
          url: compile(request.url),
          payload: request.payload === undefined ? null : compile(request.payload),
          headers: Object.entries(request.headers ?? {}).map(([name, value]) => [name, compile(value)]),
        });
      } catch (err) {
        this.logger.warn({ webhook: record._id, problem: errorDetail(err) }, 'webhook skipped: its patterns or templates do not compile');
      }
    }
    return compiled;
  }
}
