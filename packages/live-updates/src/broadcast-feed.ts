import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Logger } from '@vigie/kernel';
import { broadcastMessageServiceRef, type BroadcastMessageService } from '@vigie/broadcast';
import { BroadcastStreamHub } from './stream-service.js';

/** How often the active broadcast messages are read again: a window opening or closing shows within this. */
export const broadcastPollMs = 1000;

/**
 * Pushes the active broadcast messages to the banner streams whenever they change. It reads them from the store
 * every second rather than listening to writes: a window opens and closes with time, and another node's writes
 * reach the store, so one read per node per second sees every kind of change.
 */
@injectable()
export class BroadcastFeed {
  readonly #messages: BroadcastMessageService;
  readonly #hub: BroadcastStreamHub;
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | undefined;
  #current = '[]';
  #reading: Promise<void> | undefined;

  constructor(
    @injectRef(broadcastMessageServiceRef) messages: BroadcastMessageService,
    @inject(BroadcastStreamHub) hub: BroadcastStreamHub,
    @injectRef(kernelRefs.logger) logger: Logger,
  ) {
    this.#messages = messages;
    this.#hub = hub;
    this.#logger = logger;
  }

  /** The active messages as last read (JSON). */
  get current(): string {
    return this.#current;
  }

  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh(), broadcastPollMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Reads the active messages; publishes them when they differ from the last read. */
  refresh(): Promise<void> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  async #read(): Promise<void> {
    try {
      const active = JSON.stringify(await this.#messages.active());
      if (active === this.#current) return;
      this.#current = active;
      this.#hub.publish(null, () => active);
    } catch (err) {
      this.#logger.warn({ err }, 'broadcast stream: reading the active messages failed');
    }
  }
}
