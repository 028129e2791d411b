// The connector side of the event pipeline benchmark (bench/events-pipeline.ts), in its own process as connectors
// are: it makes a stream of events when asked (before the clock starts), then sends it through HTTP batches or AMQP
// messages and answers with the CPU time sending took.
import { connect as amqpConnect } from 'amqplib';

export type Events = Record<string, unknown>[];

/** What the benchmark asks: make a stream, then send it. */
export type SenderRequest =
  | { kind: 'make'; events: 'warmup' | 'stream'; length: number; entities: number; round: number }
  | { kind: 'http'; url: string; authorization: string; batchSize: number; inFlight: number }
  | { kind: 'amqp'; url: string; exchange: string; perMessage: number };

/** The answer to `make` (`cpuSeconds` 0) and to a send. */
export interface SenderReply {
  cpuSeconds: number;
}

const resourceOf = (i: number) => ({ component: `host-${i % 1000}`, resource: `check-${i}` });
const base = { event_type: 'check', source_type: 'resource', connector: 'bench', connector_name: 'poller' };

/** One OK event per entity: creates the entities and their links. */
function warmup(entities: number): Events {
  return Array.from({ length: entities }, (_, i) => ({ ...base, ...resourceOf(i), state: 0, output: 'OK-0 warm-up' }));
}

/** The stream: 20 % on alarmed entities (states cycling 1-3: each event changes the alarm), 80 % OK on quiet ones. */
function stream(length: number, entities: number, round: number): Events {
  const alarmed = entities / 5;
  const events: Events = [];
  for (let n = 0; n < length; n++) {
    if (n % 5 === 0) {
      const k = (n / 5) % alarmed;
      const pass = Math.floor(n / 5 / alarmed) + round;
      events.push({ ...base, ...resourceOf(k), state: (pass % 3) + 1, output: `ERR-${n} disk usage` });
    } else {
      const k = alarmed + (n % (entities - alarmed));
      events.push({ ...base, ...resourceOf(k), state: 0, output: `OK-${n} all good` });
    }
  }
  return events;
}

async function sendHttp(events: Events, { url, authorization, batchSize, inFlight }: Extract<SenderRequest, { kind: 'http' }>): Promise<void> {
  const headers = { authorization, 'content-type': 'application/json' };
  let next = 0;
  async function sender(): Promise<void> {
    while (next < events.length) {
      const batch = events.slice(next, next + batchSize);
      next += batchSize;
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
      const body = res.status === 200 ? (JSON.parse(text) as { sent_events: unknown[] }) : undefined;
      if (body?.sent_events.length !== batch.length) throw new Error(`batch refused: ${res.status} ${text.slice(0, 300)}`);
    }
  }
  await Promise.all(Array.from({ length: inFlight }, sender));
}

/** Persistent messages, confirmed by the broker (as a connector that must not lose events publishes them). */
async function sendAmqp(events: Events, { url, exchange, perMessage }: Extract<SenderRequest, { kind: 'amqp' }>): Promise<void> {
  const connection = await amqpConnect(url);
  const channel = await connection.createConfirmChannel();
  for (let i = 0; i < events.length; i += perMessage) {
    const body = perMessage === 1 ? events[i] : events.slice(i, i + perMessage);
    if (!channel.publish(exchange, 'bench', Buffer.from(JSON.stringify(body)), { persistent: true })) await new Promise((resolve) => channel.once('drain', resolve));
    if (Math.floor((i + perMessage) / 5000) > Math.floor(i / 5000)) await channel.waitForConfirms();
  }
  await channel.waitForConfirms();
  await connection.close();
}

let prepared: Events = [];
process.on('message', (request: SenderRequest) => {
  void (async () => {
    if (request.kind === 'make') {
      prepared = request.events === 'warmup' ? warmup(request.entities) : stream(request.length, request.entities, request.round);
      process.send?.({ cpuSeconds: 0 } satisfies SenderReply);
      return;
    }
    const before = process.cpuUsage();
    if (request.kind === 'http') await sendHttp(prepared, request);
    else await sendAmqp(prepared, request);
    const cpu = process.cpuUsage(before);
    process.send?.({ cpuSeconds: (cpu.user + cpu.system) / 1e6 } satisfies SenderReply);
  })().catch((err: unknown) => {
    process.stderr.write(`event sender: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
});
