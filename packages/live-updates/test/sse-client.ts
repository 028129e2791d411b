import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { testAdmin } from '@vigie/testkit';

/** One event of a stream as a client sees it. */
export interface ReceivedEvent {
  id?: string;
  event?: string;
  data: string;
}

/** A server-sent events client for tests: collects events and comments, waits on what a test asserts. */
export class SseClient {
  readonly events: ReceivedEvent[] = [];
  comments = 0;
  ended = false;
  readonly response: IncomingMessage;
  readonly #request: ClientRequest;
  #buffer = '';

  private constructor(req: ClientRequest, res: IncomingMessage, paused: boolean) {
    this.#request = req;
    this.response = res;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.#read(chunk));
    res.on('end', () => (this.ended = true));
    res.on('close', () => (this.ended = true));
    res.on('error', () => (this.ended = true));
    if (paused) res.pause();
  }

  /** Opens `path` on `baseUrl`; `paused` leaves the answer unread (a slow reader) until `resume()`. */
  static open(baseUrl: string, path: string, options: { lastEventId?: string; paused?: boolean } = {}): Promise<SseClient> {
    const auth = Buffer.from(`${testAdmin.user}:${testAdmin.password}`).toString('base64');
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, baseUrl), {
        headers: { Authorization: `Basic ${auth}`, Accept: 'text/event-stream', ...(options.lastEventId ? { 'Last-Event-ID': options.lastEventId } : {}) },
      });
      req.on('response', (res) => resolve(new SseClient(req, res, options.paused === true)));
      req.on('error', reject);
      req.end();
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** The data of the default (unnamed) events, parsed. */
  messages<T = unknown>(): T[] {
    return this.events.filter((e) => e.event === undefined).map((e) => JSON.parse(e.data) as T);
  }

  resume(): void {
    this.response.resume();
  }

  close(): void {
    this.#request.destroy();
  }

  /** Polls until `condition` holds (every 10 ms), failing after `timeoutMs` with what was received. */
  async until(condition: (client: SseClient) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition(this)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(this.events.slice(-5))}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    let end: number;
    while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      const received: ReceivedEvent = { data: '' };
      const data: string[] = [];
      let comment = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comment = true;
        else if (line.startsWith('id: ')) received.id = line.slice(4);
        else if (line.startsWith('event: ')) received.event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) {
        received.data = data.join('\n');
        this.events.push(received);
      } else if (comment) this.comments += 1;
    }
  }
}
