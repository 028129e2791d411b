import { Readable } from 'node:stream';
import type { ServerResponse } from 'node:http';

/** One server-sent event frame (`id`, `event`, `data` lines; data is one JSON line). */
export function sseFrame(id: string | undefined, event: string | undefined, data: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`;
}

/** Why a stream closed. */
export type CloseReason = 'ended' | 'dropped' | 'client';

/**
 * One open stream. Its `body` is what the answer pipes to the client; frames wait in a queue of at most `queueLimit`
 * while the client does not read (the socket and the body's own buffer are full); one more and the connection is
 * dropped, so a slow reader costs a bounded amount of memory. A comment line every `heartbeatMs` keeps proxies and
 * idle timers from closing a quiet stream.
 */
export class SseConnection {
  readonly body: Readable;
  readonly #queue: (string | Buffer | null)[] = [];
  /** Messages in `#queue` (a chunk may hold several). */
  readonly #queueCounts: number[] = [];
  #queued = 0;
  readonly #queueLimit: number;
  readonly #response: ServerResponse;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #closeListeners: ((reason: CloseReason) => void)[] = [];
  #wanting = false;
  #closed = false;

  constructor(response: ServerResponse, options: { queueLimit: number; heartbeatMs: number }) {
    this.body = new Readable({ read: () => this.#flush() });
    this.#response = response;
    this.#queueLimit = options.queueLimit;
    this.#heartbeat = setInterval(() => this.write(': heartbeat\n\n'), options.heartbeatMs);
    this.#heartbeat.unref();
    response.once('close', () => this.#finish('client'));
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  onClose(listener: (reason: CloseReason) => void): void {
    this.#closeListeners.push(listener);
  }

  /**
   * Queues a chunk of `messages` messages (a comment counts none) for the client; drops the connection when more than
   * `queueLimit` messages would wait.
   */
  write(chunk: string | Buffer, messages = 0): void {
    if (this.#closed) return;
    if (this.#wanting && this.#queue.length === 0) {
      this.#wanting = this.body.push(chunk);
      return;
    }
    if (this.#queued + messages > this.#queueLimit) {
      this.drop();
      return;
    }
    this.#queue.push(chunk);
    this.#queueCounts.push(messages);
    this.#queued += messages;
  }

  /** Ends the stream after what is queued (the server stops). */
  end(): void {
    if (this.#closed) return;
    this.#queue.push(null);
    this.#queueCounts.push(0);
    this.#finish('ended');
    if (this.#wanting) this.#flush();
  }

  /** Closes the connection at once, without sending what waits (a reader too slow to keep). */
  drop(): void {
    if (this.#closed) return;
    this.#queue.length = 0;
    this.#queueCounts.length = 0;
    this.#queued = 0;
    this.#finish('dropped');
    this.#response.destroy();
  }

  #flush(): void {
    this.#wanting = true;
    while (this.#wanting && this.#queue.length > 0) {
      this.#queued -= this.#queueCounts.shift() as number;
      this.#wanting = this.body.push(this.#queue.shift());
    }
  }

  #finish(reason: CloseReason): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const listener of this.#closeListeners.splice(0)) listener(reason);
  }
}
