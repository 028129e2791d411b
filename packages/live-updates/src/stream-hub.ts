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

/** Subscribers with the same selection: what they receive is worked out once for all of them. */
interface Group<S> {
  key: string;
  select: Selector<S>;
  members: Set<SseConnection>;
}

/**
 * How long a message waits for others to go out with it: each connection gets one write per window instead of one per
 * message, the cost that dominates with many streams, for a few milliseconds of latency.
 */
const flushDelayMs = 20;

/** Why a client resuming with `Last-Event-ID` must reload instead. */
export type ResumeProblem = 'unknown' | 'expired';

/**
 * The messages of one stream topic on this node, numbered in the order this node received them, the last
 * `replayLimit` kept so that a client resuming with `Last-Event-ID` gets exactly what it missed. Ids are
 * `<hub>-<seq>`: an id of another hub (another node, or this one before a restart) cannot be resumed from.
 *
 * Fan-out is what costs with many streams, so it is batched: the messages published within `flushDelayMs` go out
 * together, and subscribers with the same selection share one selection pass and one buffer, so each
 * connection gets one write per batch whatever the number of messages.
 */
export class StreamHub<S> {
  readonly #hubId = randomBytes(4).toString('hex');
  readonly #replay: (HubMessage<S> | undefined)[];
  readonly #replayLimit: number;
  readonly #groups = new Map<string, Group<S>>();
  #pending: HubMessage<S>[] = [];
  #flushScheduled = false;
  #seq = 0;

  constructor(replayLimit: number) {
    this.#replayLimit = replayLimit;
    this.#replay = new Array<HubMessage<S> | undefined>(replayLimit);
  }

  /** The id of the last message (what a client that saw everything would resume from). */
  get lastId(): string {
    return `${this.#hubId}-${this.#seq}`;
  }

  /** Sends a message to the subscribers that select one of its variants (`render(variant)` is its data). */
  publish(subject: S, render: (variant: number) => string): void {
    const message: HubMessage<S> = { seq: ++this.#seq, subject, render, frames: [] };
    if (this.#replayLimit > 0) this.#replay[message.seq % this.#replayLimit] = message;
    this.#pending.push(message);
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setTimeout(() => this.#flush(), flushDelayMs);
    }
  }

  /**
   * Adds a subscriber whose selection is named by `key` (`makeSelector` builds it for the first of its group); with
   * `lastEventId`, first sends the kept messages after it that it selects. Answers the reason the id cannot be resumed
   * from (the caller tells the client to reload), or null. Nothing published before or after is missed or sent twice:
   * pending messages go out first, and the replay and the subscription happen in one turn of the event loop.
   */
  subscribe(connection: SseConnection, key: string, makeSelector: () => Selector<S>, lastEventId?: string): ResumeProblem | null {
    this.#flush();
    let group = this.#groups.get(key);
    if (!group) {
      group = { key, select: makeSelector(), members: new Set() };
      this.#groups.set(key, group);
    }
    let problem: ResumeProblem | null = null;
    if (lastEventId !== undefined) {
      const seen = this.#seenSeq(lastEventId);
      if (seen === null) problem = 'unknown';
      else if (seen < this.#seq - this.#replayLimit) problem = 'expired';
      else {
        const frames: string[] = [];
        for (let seq = seen + 1; seq <= this.#seq; seq++) {
          const frame = this.#frame(this.#replay[seq % this.#replayLimit] as HubMessage<S>, group.select);
          if (frame !== null) frames.push(frame);
        }
        // Not counted against the slow-reader bound: the replay is bounded by the window, and counting it would drop
        // at once a client resuming after more than `stream_queue_events` messages, again at each reconnection.
        if (frames.length > 0) connection.write(Buffer.from(frames.join('')), 0);
      }
    }
    const joined = group;
    joined.members.add(connection);
    connection.onClose(() => {
      joined.members.delete(connection);
      if (joined.members.size === 0 && this.#groups.get(joined.key) === joined) this.#groups.delete(joined.key);
    });
    return problem;
  }

  /** Ends every subscriber's stream (the server stops). */
  endAll(): void {
    for (const group of [...this.#groups.values()]) for (const connection of [...group.members]) connection.end();
  }

  #flush(): void {
    this.#flushScheduled = false;
    if (this.#pending.length === 0) return;
    const messages = this.#pending;
    this.#pending = [];
    for (const group of this.#groups.values()) {
      const frames: string[] = [];
      for (const message of messages) {
        const frame = this.#frame(message, group.select);
        if (frame !== null) frames.push(frame);
      }
      if (frames.length === 0) continue;
      // One buffer shared by every member: no copy per connection.
      const chunk = Buffer.from(frames.join(''));
      for (const connection of group.members) connection.write(chunk, frames.length);
    }
  }

  #frame(message: HubMessage<S>, select: Selector<S>): string | null {
    const variant = select(message.subject);
    if (variant === null) return null;
    let frame = message.frames[variant];
    if (frame === undefined) {
      frame = sseFrame(`${this.#hubId}-${message.seq}`, undefined, message.render(variant));
      message.frames[variant] = frame;
    }
    return frame;
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
