import { randomBytes } from 'node:crypto';
import { sseFrame, type SseConnection } from './sse-connection.js';

/**
 * One message of a hub: what subscribers test (`subject`) and what they receive: the data of one of its variants
 * (`render(variant)`), each framed once whatever the number of subscribers.
 */
interface HubMessage<S> {
  seq: number;
  subject: S;
  render(variant: number): string;
  frames: (string | undefined)[];
}

/** Which variant of a message a subscriber receives, or null for none. */
export type Selector<S> = (subject: S) => number | null;

interface Subscriber<S> {
  connection: SseConnection;
  select: Selector<S>;
}

/** Why a client resuming with `Last-Event-ID` must reload instead. */
export type ResumeProblem = 'unknown' | 'expired';

/**
 * The messages of one stream topic on this node, numbered in the order this node received them, the last
 * `replayLimit` kept so that a client resuming with `Last-Event-ID` gets exactly what it missed. Ids are
 * `<hub>-<seq>`: an id of another hub (another node, or this one before a restart) cannot be resumed from.
 */
export class StreamHub<S> {
  readonly #hubId = randomBytes(4).toString('hex');
  readonly #replay: (HubMessage<S> | undefined)[];
  readonly #replayLimit: number;
  readonly #subscribers = new Set<Subscriber<S>>();
  #seq = 0;

  constructor(replayLimit: number) {
    this.#replayLimit = replayLimit;
    this.#replay = new Array<HubMessage<S> | undefined>(replayLimit);
  }

  /** The id of the last message (what a client that saw everything would resume from). */
  get lastId(): string {
    return `${this.#hubId}-${this.#seq}`;
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** Sends a message to the subscribers that select one of its variants (`render(variant)` is its data). */
  publish(subject: S, render: (variant: number) => string): void {
    const message: HubMessage<S> = { seq: ++this.#seq, subject, render, frames: [] };
    if (this.#replayLimit > 0) this.#replay[message.seq % this.#replayLimit] = message;
    for (const subscriber of this.#subscribers) this.#deliver(message, subscriber);
  }

  #deliver(message: HubMessage<S>, subscriber: Subscriber<S>): void {
    const variant = subscriber.select(message.subject);
    if (variant === null) return;
    let frame = message.frames[variant];
    if (frame === undefined) {
      frame = sseFrame(`${this.#hubId}-${message.seq}`, undefined, message.render(variant));
      message.frames[variant] = frame;
    }
    subscriber.connection.write(frame);
  }

  /**
   * Adds a subscriber; with `lastEventId`, first sends the kept messages after it that it wants. Answers the reason
   * the id cannot be resumed from (the caller tells the client to reload), or null. Replay and subscription happen in
   * one turn of the event loop, so nothing published meanwhile is missed or sent twice.
   */
  subscribe(connection: SseConnection, select: Selector<S>, lastEventId?: string): ResumeProblem | null {
    const subscriber = { connection, select };
    let problem: ResumeProblem | null = null;
    if (lastEventId !== undefined) {
      const seen = this.#seenSeq(lastEventId);
      if (seen === null) problem = 'unknown';
      else if (seen < this.#seq - this.#replayLimit) problem = 'expired';
      else {
        for (let seq = seen + 1; seq <= this.#seq; seq++) this.#deliver(this.#replay[seq % this.#replayLimit] as HubMessage<S>, subscriber);
      }
    }
    this.#subscribers.add(subscriber);
    connection.onClose(() => this.#subscribers.delete(subscriber));
    return problem;
  }

  /** Ends every subscriber's stream (the server stops). */
  endAll(): void {
    for (const { connection } of [...this.#subscribers]) connection.end();
  }

  /** The sequence number of one of this hub's ids, or null for an id it did not give. */
  #seenSeq(id: string): number | null {
    const dash = id.lastIndexOf('-');
    if (dash < 0 || id.slice(0, dash) !== this.#hubId) return null;
    const text = id.slice(dash + 1);
    if (!/^\d{1,15}$/.test(text)) return null;
    const seq = Number(text);
    return seq <= this.#seq ? seq : null;
  }
}
