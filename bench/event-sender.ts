// The connector side of the event pipeline benchmark (bench/events-pipeline.ts) and of the console's background load
// (bench/console-list.ts), in its own process as connectors are: it makes a stream of events when asked (before the clock starts), then sends it through HTTP batches or AMQP
// messages and answers with the CPU time sending took. Asked to watch, it reads `GET /api/v2/alarms/stream` as a
// screen would, and measures, for each alarm-changing event (`ERR-<n>` in its output), the time from its acceptance
// (the answer to its HTTP batch, or its publication over AMQP) to its alarm change arriving on the stream.
import { request } from 'node:http';
import { connect as amqpConnect } from 'amqplib';
import { readFrames } from './sse-frames.js';

export type Events = Record<string, unknown>[];

/** What the benchmark asks: make a stream, then send it. */
export type SenderRequest =
  | { kind: 'make'; events: 'warmup' | 'stream'; length: number; entities: number; round: number }
  /**
   * `rate`: events per second offered at most (a batch leaves no earlier than its share of the time); absent, as fast
   * as answered. `untilStopped`: the stream is sent over and over, a steady background load, until `stop`.
   */
  | { kind: 'http'; url: string; authorization: string; batchSize: number; inFlight: number; rate?: number; untilStopped?: boolean }
  /** Ends a send after the requests in flight; no answer of its own (the send answers). */
  | { kind: 'stop' }
  | { kind: 'amqp'; url: string; exchange: string; perMessage: number }
  | { kind: 'watch'; url: string; authorization: string }
  | { kind: 'latencies'; waitMs: number };

/** The answer to `make` (`cpuSeconds` 0) and to a send. */
export interface SenderReply {
  cpuSeconds: number;
  /** A send: events the server accepted (answered 200). */
  accepted?: number;
  /** `latencies`: acceptance to readable on the stream (ms, sorted), and accepted changes not seen within the wait. */
  latencies?: number[];
  missing?: number;
}

/** `n` of `ERR-<n>`, per accepted event and per change read on the stream: epoch ms. */
const accepted = new Map<number, number>();
const arrived = new Map<number, number>();
const errorNumber = (event: Record<string, unknown>): number | undefined => {
  const match = /^ERR-(\d+)/.exec(String(event.output));
  return match ? Number(match[1]) : undefined;
};
function noteAccepted(events: Events, at: number): void {
  for (const event of events) {
    const n = errorNumber(event);
    if (n !== undefined) accepted.set(n, at);
  }
}

/** One stream of every alarm change, read like a screen reads it. Resolves once it answers 200. */
function watch(url: string, authorization: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/v2/alarms/stream', url), { headers: { authorization, accept: 'text/event-stream' } });
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      readFrames(res, (frame, now) => {
        const match = /"output":"ERR-(\d+)/.exec(frame);
        if (match && !arrived.has(Number(match[1]))) arrived.set(Number(match[1]), now);
      });
      resolve();
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits up to `waitMs` for every accepted change to show on the stream, then gives the latencies and forgets them. */
async function latencies(waitMs: number): Promise<{ latencies: number[]; missing: number }> {
  const deadline = Date.now() + waitMs;
  const seen = () => [...accepted.keys()].filter((n) => arrived.has(n)).length;
  while (seen() < accepted.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const list: number[] = [];
  for (const [n, at] of accepted) {
    const arrival = arrived.get(n);
    if (arrival !== undefined) list.push(arrival - at);
  }
  const missing = accepted.size - list.length;
  accepted.clear();
  arrived.clear();
  return { latencies: list.sort((a, b) => a - b), missing };
}

const resourceOf = (i: number) => ({ component: `host-${i % 1000}`, resource: `check-${i}` });
const base = { event_type: 'check', source_type: 'resource', connector: 'bench', connector_name: 'poller' };

/** One OK event per entity: creates the entities and their links. */
function warmup(entities: number): Events {
  return Array.from({ length: entities }, (_, i) => ({ ...base, ...resourceOf(i), state: 0, output: 'OK-0 warm-up' }));
}

/**
 * `BENCH_ALARMS=0`: the fifth of the stream meant for the alarmed entities is OK too, so no alarm opens (the baseline
 * of the memory per open alarm: the same events, entities and rules, without the alarms).
 */
const alarming = process.env.BENCH_ALARMS !== '0';

/** The stream: 20 % on alarmed entities (states cycling 1-3: each event changes the alarm), 80 % OK on quiet ones. */
function stream(length: number, entities: number, round: number): Events {
  const alarmed = entities / 5;
  const events: Events = [];
  for (let n = 0; n < length; n++) {
    if (n % 5 === 0) {
      const k = (n / 5) % alarmed;
      const pass = Math.floor(n / 5 / alarmed) + round;
      events.push({ ...base, ...resourceOf(k), state: alarming ? (pass % 3) + 1 : 0, output: `ERR-${n} disk usage` });
    } else {
      const k = alarmed + (n % (entities - alarmed));
      events.push({ ...base, ...resourceOf(k), state: 0, output: `OK-${n} all good` });
    }
  }
  return events;
}

let stopRequested = false;

/** Sends the stream; answers how many events the server accepted. */
async function sendHttp(events: Events, { url, authorization, batchSize, inFlight, rate, untilStopped }: Extract<SenderRequest, { kind: 'http' }>): Promise<number> {
  const headers = { authorization, 'content-type': 'application/json' };
  const started = performance.now();
  stopRequested = false;
  let offered = 0;
  let accepted = 0;
  async function sender(): Promise<void> {
    while (!stopRequested && (untilStopped || offered < events.length)) {
      const from = offered % events.length;
      const batch = events.slice(from, from + batchSize);
      const due = rate ? started + (offered / rate) * 1000 : 0;
      offered += batch.length;
      if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      let res: Response;
      for (;;) {
        try {
          res = await fetch(`${url}/api/v2/event`, { method: 'POST', headers, body: JSON.stringify(batch) });
          break;
        } catch (err) {
          // A kept-alive connection the busy server closed as it was reused: the batch was not read; send it again.
          const code = (err as { cause?: { code?: string } }).cause?.code;
          if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw err;
        }
      }
      const text = await res.text();
      if (res.status === 200) noteAccepted(batch, Date.now());
      const body = res.status === 200 ? (JSON.parse(text) as { sent_events: unknown[] }) : undefined;
      if (body?.sent_events.length !== batch.length) throw new Error(`batch refused: ${res.status} ${text.slice(0, 300)}`);
      accepted += batch.length;
    }
  }
  await Promise.all(Array.from({ length: inFlight }, sender));
  return accepted;
}

/** Persistent messages, confirmed by the broker (as a connector that must not lose events publishes them). */
async function sendAmqp(events: Events, { url, exchange, perMessage }: Extract<SenderRequest, { kind: 'amqp' }>): Promise<void> {
  const connection = await amqpConnect(url);
  const channel = await connection.createConfirmChannel();
  for (let i = 0; i < events.length; i += perMessage) {
    const body = perMessage === 1 ? events[i] : events.slice(i, i + perMessage);
    // Publication, not the broker's confirmation, stands for acceptance: the latency is counted from a bit earlier.
    noteAccepted(events.slice(i, i + perMessage), Date.now());
    if (!channel.publish(exchange, 'bench', Buffer.from(JSON.stringify(body)), { persistent: true })) await new Promise((resolve) => channel.once('drain', resolve));
    if (Math.floor((i + perMessage) / 5000) > Math.floor(i / 5000)) await channel.waitForConfirms();
  }
  await channel.waitForConfirms();
  await connection.close();
}

let prepared: Events = [];
process.on('message', (request: SenderRequest) => {
  void (async () => {
    if (request.kind === 'stop') {
      stopRequested = true;
      return;
    }
    if (request.kind === 'make') {
      prepared = request.events === 'warmup' ? warmup(request.entities) : stream(request.length, request.entities, request.round);
      process.send?.({ cpuSeconds: 0 } satisfies SenderReply);
      return;
    }
    if (request.kind === 'watch') {
      await watch(request.url, request.authorization);
      process.send?.({ cpuSeconds: 0 } satisfies SenderReply);
      return;
    }
    if (request.kind === 'latencies') {
      process.send?.({ cpuSeconds: 0, ...(await latencies(request.waitMs)) } satisfies SenderReply);
      return;
    }
    const before = process.cpuUsage();
    let accepted = prepared.length;
    if (request.kind === 'http') accepted = await sendHttp(prepared, request);
    else await sendAmqp(prepared, request);
    const cpu = process.cpuUsage(before);
    process.send?.({ cpuSeconds: (cpu.user + cpu.system) / 1e6, accepted } satisfies SenderReply);
  })().catch((err: unknown) => {
    process.stderr.write(`event sender: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
});
