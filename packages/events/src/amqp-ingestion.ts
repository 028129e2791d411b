import { connect, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type RecoveringChannelModel } from 'amqplib';
import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { type HealthResult } from '@vigie/observability';
import { durationSeconds } from '@vigie/input';
import { eventIntakeRef } from './refs.js';
import { amqpConfig, partitionList, type AmqpConfig } from './amqp-config.js';
import { readMessage, type ReadMessage } from './amqp-messages.js';
import type { EventIntake } from './event-intake.js';
import { entityIdOf, type VigieEvent } from './pipeline.js';
import { laneOf } from './pipeline-runner.js';

/** Events a partition consumer queues in one store write, at most. */
const batchSize = 1000;
/** … waiting at most this long for more. */
const batchDelayMs = 5;
/** Events the router publishes to one partition in one message, at most (gathered for at most `batchDelayMs`). */
const routedBatchSize = 200;
/** A failed store write is tried again after this pause, the messages held unacknowledged meanwhile. */
const retryPauseMs = 1000;
/** The broker closes a channel whose check names a missing exchange with this code. */
const notFound = 404;

interface PendingMessage {
  message: ConsumeMessage;
  /** The channel it came on, to acknowledge it there. */
  channel: ConfirmChannel;
  events: VigieEvent[];
  /** Settles once the broker confirmed the dead-lettering of its refused content (absent when nothing was refused). */
  deadLettered?: Promise<boolean>;
}

/** An intake message whose events are being routed: acknowledged once every publication carrying them is confirmed. */
interface RoutedMessage {
  message: ConsumeMessage;
  outstanding: number;
  failed: boolean;
}

/** Events gathered for one partition, with the intake messages they came from. */
interface PartitionBatch {
  events: VigieEvent[];
  sources: RoutedMessage[];
}

/**
 * Events from RabbitMQ (REFERENCE §6.3). Connectors publish to the topic exchange `canopsis.events`; a durable
 * `<prefix>.intake` queue bound to it with `#` has one active consumer (single active consumer). Malformed messages
 * go to `<prefix>.dead` with their reason.
 *
 * Without `preferred_partitions` the active node takes every event itself, so the intake consumer durably queues
 * the events for the pipeline (one store write per batch) and then acknowledges their messages: one broker hop.
 * With `preferred_partitions` (several nodes share the processing), the intake consumer routes each event to the
 * durable partition queue `<prefix>.p<k>`, k a hash of the entity id (the events of a few milliseconds bound for
 * one partition travel as one list message, in order), and acknowledges the message once the broker confirmed those
 * publications; each partition queue has a single active consumer, which queues its events as above. Either way
 * one entity's events keep their order across nodes. Every node consumes the partition queues, so that what an
 * earlier configuration left there is processed.
 */
@injectable()
export class AmqpIngestion {
  #model: RecoveringChannelModel | undefined;
  #connected = false;
  #stopping = false;
  readonly #timers = new Set<NodeJS.Timeout>();
  #pending: PendingMessage[] = [];
  /** Events in `#pending`. */
  #pendingEvents = 0;
  #flushTimer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  /** Routed events waiting to be published, by partition. */
  #routed = new Map<number, PartitionBatch>();
  /** The channel `#routed` came from: after a reconnection, the broker delivers its messages again. */
  #routedFrom: ConfirmChannel | undefined;
  #routeTimer: NodeJS.Timeout | undefined;

  constructor(
    @injectRef(amqpConfig.ref) private readonly config: AmqpConfig,
    @injectRef(eventIntakeRef) private readonly intake: EventIntake,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.config.url !== '';
  }

  queueName(suffix: string): string {
    return `${this.config.queue_prefix}.${suffix}`;
  }

  /** Connects in the background and keeps reconnecting: an absent broker never stops the server. */
  async start(): Promise<void> {
    if (!this.enabled) return;
    this.#model = await connect(this.config.url, {
      recovery: {
        waitForConnect: false,
        maxDelay: 30_000,
        setup: (model: ChannelModel) => this.#setup(model),
      },
    });
    this.#model.on('disconnect', (err: Error) => {
      this.#connected = false;
      if (!this.#stopping) this.logger.warn({ err: err.message }, 'AMQP connection lost; reconnecting');
    });
    this.#model.on('connect-failed', (err: Error) => this.logger.warn({ err: err.message }, 'AMQP connection failed; retrying'));
    this.#model.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'AMQP error'));
  }

  /** Stops consuming, queues what was received, and closes the connection (unacknowledged messages go back to the broker). */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const timer of this.#timers) clearTimeout(timer);
    // What was routed but not yet published goes out, so that no message is delivered again half routed.
    if (this.#routedFrom) {
      this.#publishAllRouted(this.#routedFrom);
      await this.#routedFrom.waitForConfirms().catch(() => undefined);
    }
    await this.#flush();
    await this.#model?.close().catch(() => undefined);
    this.#connected = false;
  }

  health(): Promise<HealthResult> {
    return Promise.resolve(this.#connected ? { ok: true, message: '' } : { ok: false, message: 'AMQP event ingestion is not connected to the broker' });
  }

  async #setup(model: ChannelModel): Promise<void> {
    await this.#ensureExchange(model);
    // A channel the broker closed (an error on it) stops its consumers while the connection lives on: the health
    // check must say so, and closing the connection makes the recovery set everything up again.
    const reopen = (channel: string) => () => {
      if (this.#stopping) return;
      this.#connected = false;
      this.logger.warn({ channel }, 'AMQP channel closed; reconnecting');
      model.close().catch(() => undefined);
    };
    const intakeChannel = await model.createConfirmChannel();
    intakeChannel.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'AMQP intake channel error'));
    intakeChannel.on('close', reopen('intake'));
    const singleActive = { durable: true, arguments: { 'x-single-active-consumer': true } };
    const intake = this.queueName('intake');
    await intakeChannel.assertQueue(intake, singleActive);
    await intakeChannel.bindQueue(intake, this.config.exchange, '#');
    await intakeChannel.assertQueue(this.queueName('dead'), { durable: true });
    for (let k = 0; k < this.config.partitions; k++) await intakeChannel.assertQueue(this.queueName(`p${k}`), singleActive);
    await intakeChannel.prefetch(this.config.prefetch);
    const chosen = partitionList(this.config.preferred_partitions, this.config.partitions);
    const routing = chosen !== null;
    await intakeChannel.consume(intake, (message) => message && (routing ? this.#route(intakeChannel, message) : this.#collect(intakeChannel, message)));

    // A confirm channel: a malformed event found here is acknowledged only once its dead-lettering is confirmed.
    const worker = await model.createConfirmChannel();
    worker.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'AMQP partition channel error'));
    worker.on('close', reopen('partition'));
    await worker.prefetch(this.config.prefetch);
    const all = Array.from({ length: this.config.partitions }, (_, k) => k);
    const preferred = chosen ?? all;
    const consume = (k: number) => worker.consume(this.queueName(`p${k}`), (message) => message && this.#collect(worker, message));
    for (const k of preferred) await consume(k);
    const others = all.filter((k) => !preferred.includes(k));
    if (others.length > 0) {
      // Standing by later lets the nodes that prefer these partitions become their active consumers first.
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        if (!this.#stopping) Promise.all(others.map(consume)).catch((err: unknown) => this.logger.warn({ err }, 'AMQP standby consumers failed'));
      }, (durationSeconds(this.config.standby_delay) ?? 5) * 1000);
      this.#timers.add(timer);
    }
    this.#connected = true;
    this.logger.info({ exchange: this.config.exchange, intake, routing, partitions: this.config.partitions, preferred }, 'consuming events from AMQP');
  }

  /** Declares the exchange only when it is absent: an existing one is used as it is. */
  async #ensureExchange(model: ChannelModel): Promise<void> {
    const probe = await model.createChannel();
    probe.on('error', () => undefined);
    try {
      await probe.checkExchange(this.config.exchange);
      await probe.close();
    } catch (err) {
      if ((err as { code?: unknown }).code !== notFound) throw err;
      const declare = await model.createChannel();
      await declare.assertExchange(this.config.exchange, 'topic', { durable: true });
      await declare.close();
      this.logger.info({ exchange: this.config.exchange }, 'declared the AMQP exchange');
    }
  }

  /** Intake: malformed content to the dead-letter queue, events to their partitions; ack once all is confirmed. */
  #route(router: ConfirmChannel, message: ConsumeMessage): void {
    if (this.#routedFrom !== router) {
      clearTimeout(this.#routeTimer);
      this.#routeTimer = undefined;
      this.#routed = new Map();
      this.#routedFrom = router;
    }
    const read = readMessage(message.content, this.clock.nowSec());
    if (read.events.length === 0 && read.refused.length === 0) {
      router.ack(message);
      return;
    }
    const source: RoutedMessage = { message, outstanding: 0, failed: false };
    if (read.refused.length > 0) {
      source.outstanding++;
      void this.#deadLetter(router, message, read.refused).then((confirmed) => this.#confirmed(router, [source], confirmed ? undefined : 'not confirmed'));
    }
    for (const event of read.events) {
      const partition = laneOf(entityIdOf(event), this.config.partitions);
      let batch = this.#routed.get(partition);
      if (!batch) this.#routed.set(partition, (batch = { events: [], sources: [] }));
      batch.events.push(event);
      if (batch.sources.at(-1) !== source) {
        batch.sources.push(source);
        source.outstanding++;
      }
      if (batch.events.length >= routedBatchSize) this.#publishRouted(router, partition);
    }
    if (this.#routed.size > 0) this.#routeTimer ??= setTimeout(() => this.#publishAllRouted(router), batchDelayMs);
  }

  #publishAllRouted(router: ConfirmChannel): void {
    if (router !== this.#routedFrom) return;
    clearTimeout(this.#routeTimer);
    this.#routeTimer = undefined;
    for (const partition of [...this.#routed.keys()]) this.#publishRouted(router, partition);
  }

  /** One list message for the events gathered for `partition`, in their order. */
  #publishRouted(router: ConfirmChannel, partition: number): void {
    const batch = this.#routed.get(partition);
    if (!batch) return;
    this.#routed.delete(partition);
    const content = Buffer.from(JSON.stringify(batch.events.length === 1 ? batch.events[0] : batch.events));
    try {
      router.sendToQueue(this.queueName(`p${partition}`), content, { persistent: true, contentType: 'application/json' }, (err: unknown) =>
        this.#confirmed(router, batch.sources, err),
      );
    } catch (err) {
      // The channel closed: its unacknowledged messages go back to the broker, which delivers them again.
      this.logger.warn({ err }, 'could not route AMQP events; the broker delivers their messages again');
    }
  }

  /** A publication carrying events of `sources` is confirmed (or refused): each source is acked once all of its are. */
  #confirmed(router: ConfirmChannel, sources: readonly RoutedMessage[], err: unknown): void {
    for (const source of sources) {
      if (err) source.failed = true;
      if (--source.outstanding > 0) continue;
      try {
        if (source.failed) router.nack(source.message, false, true);
        else router.ack(source.message);
      } catch {
        // The channel closed meanwhile: the broker delivers the message again.
      }
    }
  }

  /** Direct intake and partitions: events gathered for one store write. */
  #collect(channel: ConfirmChannel, message: ConsumeMessage): void {
    const read = readMessage(message.content, this.clock.nowSec());
    const pending: PendingMessage = { message, channel, events: read.events };
    if (read.refused.length > 0) pending.deadLettered = this.#deadLetter(channel, message, read.refused);
    this.#pending.push(pending);
    this.#pendingEvents += read.events.length;
    if (this.#pendingEvents >= batchSize) void this.#flush();
    else this.#flushTimer ??= setTimeout(() => void this.#flush(), batchDelayMs);
  }

  /** Publishes refused content to the dead-letter queue; resolves with whether the broker confirmed all of it. */
  #deadLetter(channel: ConfirmChannel, message: ConsumeMessage, refused: ReadMessage['refused']): Promise<boolean> {
    const { exchange, routingKey } = message.fields;
    return Promise.all(
      refused.map(({ content, reason }) => {
        this.logger.warn({ reason, routingKey }, 'malformed AMQP event dead-lettered');
        return new Promise<boolean>((resolve) => {
          try {
            channel.sendToQueue(
              this.queueName('dead'),
              content,
              { persistent: true, headers: { 'x-vigie-reason': reason, 'x-vigie-exchange': exchange, 'x-vigie-routing-key': routingKey } },
              (err: unknown) => resolve(!err),
            );
          } catch {
            resolve(false);
          }
        });
      }),
    ).then((confirmed) => confirmed.every(Boolean));
  }

  /**
   * Queues the gathered events (one write, in delivery order), then acknowledges their messages: one
   * acknowledgement per channel covers its whole batch, as its messages were gathered in delivery order.
   */
  #flush(): Promise<void> {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#pending.length === 0) return this.#flushing;
    const batch = this.#pending;
    this.#pending = [];
    this.#pendingEvents = 0;
    this.#flushing = this.#flushing.then(async () => {
      const events = batch.length === 1 ? (batch[0] as PendingMessage).events : batch.flatMap((p) => p.events);
      for (;;) {
        try {
          await this.intake.accept(events);
          break;
        } catch (err) {
          if (this.#stopping) return;
          this.logger.error({ err, events: events.length }, 'could not queue AMQP events; retrying, messages stay unacknowledged');
          await new Promise((resolve) => setTimeout(resolve, retryPauseMs));
        }
      }
      const last = new Map<ConfirmChannel, ConsumeMessage>();
      for (const pending of batch) {
        // A message whose dead-lettering failed goes back to the broker (its valid events, if any, may then be queued twice).
        if (pending.deadLettered && !(await pending.deadLettered)) {
          for (const [channel, message] of last) this.#settle(() => channel.ack(message, true));
          last.clear();
          this.#settle(() => pending.channel.nack(pending.message, false, true));
        } else last.set(pending.channel, pending.message);
      }
      for (const [channel, message] of last) this.#settle(() => channel.ack(message, true));
    });
    return this.#flushing;
  }

  #settle(acknowledge: () => void): void {
    try {
      acknowledge();
    } catch {
      // The channel closed: the broker delivers the message again (the event may then be queued twice).
    }
  }
}
