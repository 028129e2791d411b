import { createHash, randomUUID } from 'node:crypto';
import type { InferType } from 'yup';
import { inject, injectable } from 'tsyringe';
import { ErrorCodes, HttpError, injectRef, kernelRefs, errorDetail, hasCode, type Clock, type Logger, type Scheduler } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef, type AlarmChangeService, type AlarmReader, type AlarmTriggerEvent, type OpenAlarmPreview, type PreviewAlarm } from '@vigie/alarms';
import type { PreviewPage } from '@vigie/rule-schemas';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import type { VigieEvent } from '@vigie/events';
import { activePbehaviorsRef, type ActivePbehaviors } from '@vigie/pbehaviors';
import { webhooksConfig, seconds, type WebhooksConfig } from './config.js';
import { ticketFromResponse } from './declare-ticket.js';
import type { deliveryQuerySchema } from './schemas.js';
import { DeliveryRepository, type DeliveryAttempt, type DeliveryRecord, type DeliveryStatus, type RenderedRequest } from './delivery-repository.js';
import { HttpSender } from './http-sender.js';
import { WebhookSecretBox } from './secret-box.js';
import { templateData } from './template-views.js';
import { WebhookCatalog, compileWebhook, type CompiledWebhook } from './webhook-catalog.js';
import { WebhookRepository, type WebhookRecord } from './webhook-repository.js';

/** The Agenda job that makes one attempt of one delivery. */
export const deliverJobName = 'webhooks.deliver';
/** The recurring Agenda job deleting finished deliveries past `delivery_retention`. */
export const purgeJobName = 'webhooks.purge';

export interface DeliverJobData {
  delivery: string;
}

/** A chain of `declareticketwebhook` triggers this long stops: no webhook fires on the next one. */
export const maxTicketChainDepth = 5;

/** Extra time an attempt owns its delivery beyond the request timeout (storing the outcome, declaring the ticket). */
const leaseMarginMs = 5_000;

/**
 * How long one attempt owns its delivery: `request_timeout` and a margin. It is also the lock lifetime of the
 * `webhooks.deliver` job, so that the attempt of a node that died is taken over by another node that much later.
 */
export function attemptLeaseMs(config: Pick<WebhooksConfig, 'request_timeout'>): number {
  return seconds(config.request_timeout) * 1000 + leaseMarginMs;
}

const unitMs: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** A delivery as the API shows it. */
export type DeliveryOutput = Omit<DeliveryRecord, 'lease_until' | 'next_attempt_at' | 'retry_delay_ms' | 'max_attempts' | 'declare_ticket'> & {
  next_attempt_at?: number;
  max_attempts: number;
};

export function deliveryOutput(delivery: DeliveryRecord): DeliveryOutput {
  const { lease_until: _lease, next_attempt_at: next, retry_delay_ms: _delay, declare_ticket: _declare, ...shown } = delivery;
  return { ...shown, ...(delivery.status === 'pending' && next > 0 ? { next_attempt_at: Math.floor(next / 1000) } : {}) };
}

/** The list route's query, cast by `deliveryQuerySchema`. */
export type DeliveryQuery = InferType<typeof deliveryQuerySchema>;

/**
 * The webhook engine (REFERENCE §5.10). On each `alarms.trigger`, every enabled webhook whose triggers and patterns
 * match gets a delivery recorded in `webhook_deliveries` (its request rendered then) before the trigger's
 * processing ends, and an Agenda job that sends it. Each attempt is a job; a failed one records itself and
 * schedules the next after the retry delay, until the retries are exhausted and the delivery is `failed`, kept,
 * and replayable. Every attempt carries the delivery id as `Idempotency-Key`.
 */
/** What a webhook would do now: the open alarms it selects, the triggers that send it, whether it is enabled. */
export interface WebhookPreview extends PreviewPage<PreviewAlarm> {
  triggers: string[];
  enabled: boolean;
  /** Why the webhook would be skipped (a pattern or template that does not compile), when it would. */
  problem?: string;
}

@injectable()
export class DeliveryService {
  readonly #timeoutMs: number;
  readonly #retentionSec: number;
  /** The depth of the ticket chain behind each declaring event this process built (see `maxTicketChainDepth`). */
  readonly #chainDepth = new WeakMap<VigieEvent, number>();

  constructor(
    @inject(DeliveryRepository) private readonly deliveries: DeliveryRepository,
    @inject(WebhookRepository) private readonly webhooks: WebhookRepository,
    @inject(WebhookCatalog) private readonly catalog: WebhookCatalog,
    @inject(WebhookSecretBox) private readonly secrets: WebhookSecretBox,
    @inject(HttpSender) private readonly sender: HttpSender,
    @injectRef(alarmChangesRef) private readonly alarmChanges: AlarmChangeService,
    @injectRef(alarmReaderRef) private readonly alarms: AlarmReader,
    @injectRef(openAlarmPreviewRef) private readonly openAlarms: OpenAlarmPreview,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(activePbehaviorsRef) private readonly pbehaviors: ActivePbehaviors,
    @injectRef(kernelRefs.scheduler) private readonly scheduler: Scheduler,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
    @injectRef(webhooksConfig.ref) private readonly config: WebhooksConfig,
  ) {
    this.#timeoutMs = seconds(config.request_timeout) * 1000;
    this.#retentionSec = seconds(config.delivery_retention);
  }

  /** Records (and schedules) the deliveries of one trigger. Awaited by the alarm change that emitted it. */
  async onTrigger({ trigger, alarm, entity, event, eventId }: AlarmTriggerEvent): Promise<void> {
    const webhooks = (await this.catalog.enabled()).filter((webhook) => webhook.triggers.has(trigger));
    if (webhooks.length === 0) return;
    const depth = trigger === 'declareticketwebhook' && event ? (this.#chainDepth.get(event) ?? 0) : 0;
    if (depth >= maxTicketChainDepth) {
      this.logger.warn({ alarm: alarm._id, depth }, `webhooks not fired: ${maxTicketChainDepth} tickets declared in a chain of declareticketwebhook triggers`);
      return;
    }
    const fullEntity = entity ?? ((await this.entities.get(alarm.d)) as Record<string, unknown> | null) ?? undefined;
    for (const webhook of webhooks) {
      const id = webhook.record._id;
      try {
        if (!(await this.#matches(webhook, alarm.d, alarm as unknown as Record<string, unknown>, fullEntity, event))) continue;
        if (webhook.record.declare_ticket && (await this.deliveries.claimOf(id, alarm._id))) {
          this.logger.debug({ webhook: id, alarm: alarm._id }, 'webhook not fired: it already declared the ticket of this alarm');
          continue;
        }
        await this.#record(webhook, trigger, alarm, fullEntity, event, depth, eventId);
      } catch (err) {
        this.logger.error({ err, webhook: id, alarm: alarm._id, trigger }, 'webhook delivery could not be recorded');
      }
    }
  }

  /**
   * What the webhook would do if saved now (nothing stored): the open alarms its entity and alarm patterns select
   * (less those under an active pbehavior with `disable_if_active_pbehavior`), which its `triggers` (and event
   * patterns) then send. A disabled webhook sends nothing: `enabled` says so.
   */
  async preview(webhook: WebhookRecord, limit: number): Promise<WebhookPreview> {
    const answer = { triggers: webhook.hook.triggers, enabled: webhook.enabled };
    let compiled: Omit<CompiledWebhook, 'record'>;
    try {
      compiled = compileWebhook(webhook);
    } catch (err) {
      return { subject: 'alarms', count: 0, scanned: 0, data: [], ...answer, problem: errorDetail(err) };
    }
    const active = webhook.disable_if_active_pbehavior ? await this.pbehaviors.at() : null;
    const page = await this.openAlarms.select({
      limit,
      needsEntity: compiled.entityPatterns !== null,
      selects: (alarm, entity) =>
        (compiled.entityPatterns === null || compiled.entityPatterns.matches(entity as never)) &&
        (compiled.alarmPatterns === null || compiled.alarmPatterns.matches(alarm as never)) &&
        !(active?.on(alarm.d).some((pbehavior) => pbehavior.enabled !== false) ?? false),
    });
    return { ...page, ...answer };
  }

  /** For dry runs: the webhooks this trigger would send, without recording or sending them. */
  async wouldFire({ trigger, alarm, entity, event }: AlarmTriggerEvent): Promise<string[]> {
    const webhooks = (await this.catalog.enabled()).filter((webhook) => webhook.triggers.has(trigger));
    if (webhooks.length === 0) return [];
    const fullEntity = entity ?? ((await this.entities.get(alarm.d)) as Record<string, unknown> | null) ?? undefined;
    const fired: string[] = [];
    for (const webhook of webhooks) {
      if (await this.#matches(webhook, alarm.d, alarm as unknown as Record<string, unknown>, fullEntity, event)) {
        fired.push(`send webhook ${webhook.record._id} (${webhook.record.request.method} ${webhook.record.request.url})`);
      }
    }
    return fired;
  }

  async #matches(
    webhook: CompiledWebhook,
    entityId: string,
    alarm: Record<string, unknown>,
    entity: Record<string, unknown> | undefined,
    event: VigieEvent | undefined,
  ): Promise<boolean> {
    if (webhook.eventPatterns && !webhook.eventPatterns.matchesEverything && (!event || !webhook.eventPatterns.matches(event, entity as never))) return false;
    if (webhook.entityPatterns && !webhook.entityPatterns.matches(entity as never)) return false;
    if (webhook.alarmPatterns && !webhook.alarmPatterns.matches(alarm as never)) return false;
    if (webhook.record.disable_if_active_pbehavior) {
      const active = (await this.pbehaviors.at()).on(entityId);
      if (active.some((pbehavior) => pbehavior.enabled !== false)) return false;
    }
    return true;
  }

  async #record(
    webhook: CompiledWebhook,
    trigger: string,
    alarm: AlarmTriggerEvent['alarm'],
    entity: Record<string, unknown> | undefined,
    event: VigieEvent | undefined,
    depth: number,
    eventId: string | undefined,
  ): Promise<void> {
    const nowSec = this.clock.nowSec();
    const retry = this.#retry(webhook.record);
    const delivery: DeliveryRecord = {
      _id: eventId === undefined ? randomUUID() : deliveryIdOf(eventId, trigger, webhook.record._id, alarm._id),
      webhook: webhook.record._id,
      alarm: alarm._id,
      entity: alarm.d,
      trigger,
      status: 'pending',
      request: { method: webhook.record.request.method, url: '', headers: {} },
      declare_ticket: webhook.record.declare_ticket !== undefined,
      attempts: [],
      max_attempts: 1 + retry.count,
      retry_delay_ms: retry.delayMs,
      next_attempt_at: 0,
      lease_until: 0,
      depth,
      created: nowSec,
      updated: nowSec,
    };
    try {
      // `v.children` holds the children's entity ids (as the original): their alarms attached to this meta-alarm, or
      // still open (the `metaalarm` trigger fires when the meta-alarm is stored, just before its children are attached).
      const children =
        alarm.v.children.length > 0
          ? (await this.alarms.find({ d: { $in: alarm.v.children } })).filter((child) => child.v.parents.includes(alarm.d) || child.v.resolved === undefined)
          : [];
      delivery.request = this.#render(webhook, templateData({ alarm, trigger, nowSec, event, entity, children }));
    } catch (err) {
      // Kept as failed so that it shows in the list; the template is fixed with PUT, then a new trigger fires it.
      Object.assign(delivery, { status: 'failed', reason: `template error: ${errorDetail(err)}`, finished: nowSec });
      await this.deliveries.insert(delivery);
      this.logger.warn({ webhook: delivery.webhook, delivery: delivery._id, reason: delivery.reason }, 'webhook request could not be rendered');
      return;
    }
    try {
      await this.deliveries.insert(delivery);
    } catch (err) {
      // The trigger came again (its event was redelivered after a crash) and was recorded the first time.
      if (hasCode(err, ErrorCodes.DuplicateKey)) return;
      throw err;
    }
    await this.scheduler.now<DeliverJobData>(deliverJobName, { delivery: delivery._id });
  }

  #render(webhook: CompiledWebhook, data: ReturnType<typeof templateData>): RenderedRequest {
    const headers: Record<string, string> = {};
    for (const [name, template] of webhook.headers) headers[name] = template.render(data);
    return {
      method: webhook.record.request.method,
      url: webhook.url.render(data).trim(),
      headers,
      ...(webhook.payload ? { payload: webhook.payload.render(data) } : {}),
    };
  }

  /** `retry` of the webhook, each missing field from `[webhooks]`. */
  #retry(webhook: Pick<WebhookRecord, 'retry'>): { count: number; delayMs: number } {
    const count = webhook.retry?.count ?? this.config.retry_count;
    const delay = webhook.retry?.delay ?? this.config.retry_delay;
    const unit = webhook.retry?.unit ?? this.config.retry_unit;
    return { count, delayMs: delay * (unitMs[unit] ?? 1000) };
  }

  /** One attempt (the `webhooks.deliver` job). Harmless when the delivery is not due, finished or owned by another. */
  async attempt(deliveryId: string): Promise<void> {
    const startedMs = Date.now();
    const delivery = await this.deliveries.lease(deliveryId, startedMs, attemptLeaseMs(this.config));
    if (!delivery) return this.#watchLease(deliveryId, startedMs);
    try {
      await this.#attempt(delivery, startedMs);
    } catch (err) {
      // Not the target's failure (the store, the alarm change): no attempt is counted; the delivery is tried again.
      const next = Date.now() + Math.max(delivery.retry_delay_ms, 1000);
      this.logger.error({ err, delivery: delivery._id, webhook: delivery.webhook }, 'webhook attempt interrupted; tried again later');
      await this.deliveries.update(delivery._id, { lease_until: 0, next_attempt_at: next }, 'pending');
      await this.scheduler.at<DeliverJobData>(new Date(next), deliverJobName, { delivery: delivery._id });
    }
  }

  /**
   * A job that could not lease its pending delivery because another attempt holds it comes back when that lease ends.
   * The holder may be dead: its job lock ends at the same time as the lease, measured from a moment a little earlier
   * (the lock is taken before the attempt starts), so the job that takes the dead node's attempt over can arrive a
   * few milliseconds before the lease is free. A live holder finishes or plans its own retry first; this job then
   * finds the delivery finished or not yet due and ends.
   */
  async #watchLease(deliveryId: string, nowMs: number): Promise<void> {
    const delivery = await this.deliveries.get(deliveryId);
    if (delivery?.status !== 'pending' || delivery.lease_until <= nowMs) return;
    await this.scheduler.at<DeliverJobData>(new Date(delivery.lease_until), deliverJobName, { delivery: deliveryId });
  }

  async #attempt(delivery: DeliveryRecord, startedMs: number): Promise<void> {
    const t = this.clock.nowSec();
    const webhook = await this.webhooks.get(delivery.webhook);
    if (!webhook) return this.#finish(delivery, 'failed', { reason: 'the webhook was deleted' });
    if (delivery.declare_ticket) {
      const claim = await this.deliveries.claim(delivery.webhook, delivery.alarm, delivery._id, t);
      if (claim.delivery !== delivery._id) {
        return this.#finish(delivery, 'skipped', { reason: `delivery ${claim.delivery} of this webhook owns the ticket of this alarm` });
      }
    }
    let headers: Record<string, string>;
    try {
      headers = this.#headers(delivery, webhook);
    } catch (err) {
      return this.#finish(delivery, 'failed', { reason: `the stored password cannot be used: ${errorDetail(err)}` });
    }
    const outcome = await this.sender.send({
      method: delivery.request.method,
      url: delivery.request.url,
      headers,
      ...(delivery.request.payload !== undefined ? { body: delivery.request.payload } : {}),
      timeoutMs: this.#timeoutMs,
    });
    const attempt: DeliveryAttempt = { t, duration_ms: Date.now() - startedMs };
    if ('error' in outcome) return this.#failedAttempt(delivery, { ...attempt, error: outcome.error });
    attempt.status = outcome.status;
    if (outcome.status < 200 || outcome.status > 299) {
      return this.#failedAttempt(delivery, { ...attempt, error: `HTTP ${outcome.status}${excerpt(outcome.body)}` });
    }
    if (!webhook.declare_ticket) return this.#finish(delivery, 'succeeded', {}, attempt);
    const ticket = ticketFromResponse(webhook.declare_ticket, outcome.body);
    if ('error' in ticket) return this.#finish(delivery, 'failed', { reason: ticket.error }, { ...attempt, error: ticket.error });
    const declared = await this.#declare(delivery, webhook, ticket.ticket, ticket.data);
    return this.#finish(delivery, 'succeeded', declared ? { ticket: ticket.ticket } : { reason: 'the alarm was resolved before its ticket was declared' }, attempt);
  }

  #headers(delivery: DeliveryRecord, webhook: WebhookRecord): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(delivery.request.headers)) {
      if (name.toLowerCase() !== 'idempotency-key') headers[name] = value;
    }
    headers['Idempotency-Key'] = delivery._id;
    const auth = webhook.request.auth;
    if (auth) {
      // Decrypted here, for this request only: never stored in the delivery, never logged.
      const password = auth.password === undefined ? '' : this.secrets.open(auth.password);
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'authorization') delete headers[name];
      headers.Authorization = `Basic ${Buffer.from(`${auth.username}:${password}`).toString('base64')}`;
    }
    return headers;
  }

  /**
   * Stores the ticket on the alarm through the change service: a `declareticket` step and the
   * `declareticketwebhook` trigger. The delivery id is the change's event id, so an attempt repeated after a crash
   * does not add a second step. False when the alarm is no longer open.
   */
  async #declare(delivery: DeliveryRecord, webhook: WebhookRecord, ticket: string, data: Record<string, string>): Promise<boolean> {
    const open = await this.alarms.openAlarm(delivery.entity);
    if (!open || open._id !== delivery.alarm) return false;
    const output = `Ticket ${ticket} declared by webhook ${webhook._id}`;
    const event: VigieEvent = {
      event_type: 'declareticket',
      source_type: open.v.resource !== undefined ? 'resource' : 'component',
      connector: open.v.connector,
      connector_name: open.v.connector_name,
      component: open.v.component,
      ...(open.v.resource !== undefined ? { resource: open.v.resource } : {}),
      timestamp: this.clock.nowSec(),
      output,
      author: 'webhook',
      ticket,
    };
    this.#chainDepth.set(event, delivery.depth + 1);
    await this.alarmChanges.apply(
      delivery.entity,
      { type: 'declareticketwebhook', ticket, ...(Object.keys(data).length > 0 ? { ticketData: data } : {}), author: 'webhook', output, initiator: 'system' },
      { eventId: `webhook-delivery:${delivery._id}`, event },
      () => undefined,
    );
    await this.deliveries.recordTicket(delivery.webhook, delivery.alarm, ticket);
    return true;
  }

  async #failedAttempt(delivery: DeliveryRecord, attempt: DeliveryAttempt): Promise<void> {
    if (delivery.attempts.length + 1 >= delivery.max_attempts) return this.#finish(delivery, 'failed', { reason: attempt.error ?? 'failed' }, attempt);
    const next = Date.now() + delivery.retry_delay_ms;
    // The attempt and the time of the next one are stored before the job is queued: a crash in between is repaired
    // by `recover` at the next start, which queues a job for every pending delivery.
    await this.deliveries.recordAttempt(delivery._id, attempt, { next_attempt_at: next, lease_until: 0, updated: this.clock.nowSec() });
    await this.scheduler.at<DeliverJobData>(new Date(next), deliverJobName, { delivery: delivery._id });
    this.logger.info({ webhook: delivery.webhook, delivery: delivery._id, error: attempt.error }, 'webhook attempt failed; retry scheduled');
  }

  async #finish(delivery: DeliveryRecord, status: DeliveryStatus, fields: Partial<DeliveryRecord>, attempt?: DeliveryAttempt): Promise<void> {
    const now = this.clock.nowSec();
    const update = { status, ...fields, lease_until: 0, next_attempt_at: 0, updated: now, finished: now };
    if (attempt) await this.deliveries.recordAttempt(delivery._id, attempt, update);
    else await this.deliveries.update(delivery._id, update, 'pending');
    const log = { webhook: delivery.webhook, delivery: delivery._id, alarm: delivery.alarm, reason: fields.reason };
    if (status === 'failed') this.logger.warn(log, 'webhook delivery failed');
    else this.logger.debug(log, `webhook delivery ${status}`);
  }

  /**
   * Queues an attempt for every pending delivery that has no job waiting (at start): what a crash left in flight
   * (its job locked by the dead process) or between two writes.
   */
  async recover(): Promise<void> {
    const waiting = new Set<unknown>();
    for (const job of await this.scheduler.list(deliverJobName)) {
      if (job.nextRunAt !== null && job.lockedAt === null) waiting.add((job.data as DeliverJobData | null)?.delivery);
    }
    for (const delivery of await this.deliveries.pending()) {
      if (waiting.has(delivery._id)) continue;
      const when = Math.max(Date.now(), delivery.next_attempt_at, delivery.lease_until);
      await this.scheduler.at<DeliverJobData>(new Date(when), deliverJobName, { delivery: delivery._id });
    }
  }

  async list(query: DeliveryQuery): Promise<{ total_count: number; count: number; data: DeliveryOutput[] }> {
    const filter: Record<string, unknown> = {};
    if (query.webhook !== undefined) filter.webhook = query.webhook;
    if (query.alarm !== undefined) filter.alarm = query.alarm;
    if (query.status !== undefined) filter.status = query.status;
    const page = await this.deliveries.page(filter, query.skip, query.limit);
    return { total_count: page.total, count: page.data.length, data: page.data.map(deliveryOutput) };
  }

  async get(id: string): Promise<DeliveryOutput> {
    const delivery = await this.deliveries.get(id);
    if (!delivery) throw deliveryNotFound(id);
    return deliveryOutput(delivery);
  }

  /**
   * Sends a failed delivery again: the same request and `Idempotency-Key`, with 1 + `retry.count` more attempts
   * (the webhook's current retry settings). Its past attempts are kept.
   */
  async replay(id: string, user: string): Promise<DeliveryOutput> {
    const delivery = await this.deliveries.get(id);
    if (!delivery) throw deliveryNotFound(id);
    if (delivery.status !== 'failed') throw new HttpError(409, `only a failed delivery can be replayed; delivery ${id} is ${delivery.status}`);
    const webhook = await this.webhooks.get(delivery.webhook);
    const retry = webhook ? this.#retry(webhook) : { count: 0, delayMs: delivery.retry_delay_ms };
    const fields: Partial<DeliveryRecord> = {
      status: 'pending',
      max_attempts: delivery.attempts.length + 1 + retry.count,
      retry_delay_ms: retry.delayMs,
      next_attempt_at: 0,
      lease_until: 0,
      updated: this.clock.nowSec(),
    };
    if (!(await this.deliveries.update(id, fields, 'failed'))) throw new HttpError(409, `only a failed delivery can be replayed; delivery ${id} changed meanwhile`);
    await this.scheduler.now<DeliverJobData>(deliverJobName, { delivery: id });
    this.logger.info({ delivery: id, webhook: delivery.webhook, user }, 'webhook delivery replayed');
    return deliveryOutput({ ...delivery, ...fields });
  }

  /** Deletes finished deliveries older than `delivery_retention` (the recurring purge job). */
  async purge(): Promise<void> {
    if (this.#retentionSec <= 0) return;
    const removed = await this.deliveries.deleteFinishedUntil(this.clock.nowSec() - this.#retentionSec);
    if (removed > 0) this.logger.info({ removed }, 'old webhook deliveries deleted');
  }
}

/**
 * The id of the delivery of one webhook for one trigger of an event's change: the same when the trigger is emitted
 * again after a crash, so the delivery is recorded once. Written as a UUID.
 */
export function deliveryIdOf(eventId: string, trigger: string, webhook: string, alarm: string): string {
  const hex = createHash('sha256').update([eventId, trigger, webhook, alarm].join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function deliveryNotFound(id: string): HttpError {
  return new HttpError(404, `No webhook delivery with id ${id}`);
}

/** The start of an error answer's body, for the attempt's error. */
function excerpt(body: string): string {
  const text = body.trim().replace(/\s+/g, ' ');
  if (text === '') return '';
  return `: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}
