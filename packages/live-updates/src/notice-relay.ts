import { connect, type Channel, type ChannelModel, type RecoveringChannelModel } from 'amqplib';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Logger } from '@vigie/kernel';
import { amqpConfigRef, type AmqpConfig } from '@vigie/events';
import { isAlarmNotice, type AlarmNotice } from './alarm-notice.js';
import { AlarmStreamHub } from './stream-service.js';

/**
 * At most this many notices travel in one broker message: a turn of the event loop that changes thousands of alarms
 * (a bulk action) still sends messages of a few hundred kilobytes.
 */
const maxNoticesPerMessage = 500;

/**
 * Carries alarm notices to the alarm stream of every node. With `[amqp] url`, through a fanout exchange
 * `<queue_prefix>.alarm-stream` that each node reads with its own exclusive queue (its own notices included, so
 * every node numbers the same flow the same way); without it (the embedded single node), straight to this node's hub.
 * Through the broker, the notices of one turn of the event loop travel as one message (a JSON list): one message
 * per notice cost the node and the broker more than the notices themselves under a stream of events.
 */
@injectable()
export class NoticeRelay {
  readonly #config: AmqpConfig;
  readonly #hub: AlarmStreamHub;
  readonly #logger: Logger;
  #model: RecoveringChannelModel | undefined;
  #channel: Channel | undefined;
  #stopping = false;
  #lost = 0;
  /** Notices waiting for the end of this turn of the event loop, in order. */
  #pending: AlarmNotice[] = [];
  #connected!: () => void;
  /** Settles when the first channel is set up. */
  readonly #firstChannel = new Promise<void>((resolve) => {
    this.#connected = resolve;
  });

  constructor(@injectRef(amqpConfigRef) config: AmqpConfig, @inject(AlarmStreamHub) hub: AlarmStreamHub, @injectRef(kernelRefs.logger) logger: Logger) {
    this.#config = config;
    this.#hub = hub;
    this.#logger = logger;
  }

  get exchange(): string {
    return `${this.#config.queue_prefix}.alarm-stream`;
  }

  get viaBroker(): boolean {
    return this.#config.url !== '';
  }

  /** Connects in the background and keeps reconnecting (an absent broker never stops the server). */
  async start(): Promise<void> {
    if (!this.viaBroker) return;
    this.#model = await connect(this.#config.url, {
      recovery: { waitForConnect: false, maxDelay: 30_000, setup: (model: ChannelModel) => this.#setup(model) },
    });
    this.#model.on('disconnect', (err: Error) => {
      this.#channel = undefined;
      if (!this.#stopping) this.#logger.warn({ err: err.message }, 'alarm stream: AMQP connection lost; reconnecting');
    });
    this.#model.on('error', (err: Error) => this.#logger.warn({ err: err.message }, 'alarm stream: AMQP error'));
  }

  /**
   * Resolves once notices flow through the broker, or after `timeoutMs` (false): the start waits for it, so that
   * streams opened once the server listens miss nothing, yet an absent broker does not stop the server.
   */
  async ready(timeoutMs: number): Promise<boolean> {
    if (!this.viaBroker) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const ready = await Promise.race([this.#firstChannel.then(() => true), timedOut]);
    clearTimeout(timer);
    if (!ready) this.#logger.warn({ timeoutMs }, 'alarm stream: the broker is not reachable yet; notices wait for it');
    return ready;
  }

  async stop(): Promise<void> {
    this.#publishPending();
    this.#stopping = true;
    this.#channel = undefined;
    await this.#model?.close().catch(() => undefined);
  }

  send(notice: AlarmNotice): void {
    if (!this.viaBroker) {
      this.#hub.publishNotice(notice);
      return;
    }
    this.#pending.push(notice);
    if (this.#pending.length === 1) setImmediate(() => this.#publishPending());
    else if (this.#pending.length >= maxNoticesPerMessage) this.#publishPending();
  }

  #publishPending(): void {
    const notices = this.#pending;
    if (notices.length === 0) return;
    this.#pending = [];
    if (!this.#channel) {
      // Streams miss them; their clients reload the list when they reconnect (the broker was away).
      const before = this.#lost;
      this.#lost += notices.length;
      if (Math.floor(before / 1000) !== Math.floor(this.#lost / 1000) || before === 0) {
        this.#logger.warn({ lost: this.#lost }, 'alarm stream: no broker connection; notices lost');
      }
      return;
    }
    this.#channel.publish(this.exchange, '', Buffer.from(JSON.stringify(notices)), { contentType: 'application/json' });
  }

  async #setup(model: ChannelModel): Promise<void> {
    const channel = await model.createChannel();
    channel.on('error', (err: Error) => this.#logger.warn({ err: err.message }, 'alarm stream: AMQP channel error'));
    await channel.assertExchange(this.exchange, 'fanout', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, this.exchange, '');
    await channel.consume(
      queue,
      (message) => {
        if (!message) return;
        let decoded: unknown;
        try {
          decoded = JSON.parse(message.content.toString('utf8'));
        } catch {
          decoded = undefined;
        }
        // A list from this version, a single notice from a node not yet upgraded.
        const notices = Array.isArray(decoded) ? (decoded as unknown[]) : [decoded];
        for (const notice of notices) {
          if (isAlarmNotice(notice)) this.#hub.publishNotice(notice);
          else this.#logger.warn({ exchange: this.exchange }, 'alarm stream: a message that is no alarm notice was ignored');
        }
      },
      { noAck: true },
    );
    this.#channel = channel;
    this.#connected();
  }
}
