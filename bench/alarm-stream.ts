// Stream fan-out benchmark: the event pipeline (events, entities, alarms; embedded SQLite store) runs a stream of
// check events, 20 % of them changing alarms, first with no alarm stream open, then with BENCH_STREAMS (default
// 1,000) `GET /api/v2/alarms/stream` connections open, read by a separate process (bench/stream-clients.ts). Prints the
// pipeline's events/s and CPU per event in both runs (the cost of the streams), and the push latency — from the alarm
// change stored (a stage right after the alarms stage) to the message read by a client — over a sample of streams.
//
//   pnpm build && node bench/run.mjs stream    (BENCH_STREAMS: streams, default 1000; BENCH_EVENTS: events per run,
//                                                default 20000; BENCH_SAMPLED: streams whose arrivals are timed, default 50;
//                                                BENCH_RATE: events/s offered, default 0 = as fast as the pipeline takes them)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alarmsFeature } from '../packages/alarms/dist/index.js';
import { authFeature } from '../packages/auth/dist/index.js';
import { broadcastFeature } from '../packages/broadcast/dist/index.js';
import { contextGraphFeature } from '../packages/context-graph/dist/index.js';
import { eventsAmqpFeature, eventsFeature, pipelineStagesPoint, PipelineOrder, PipelineRunner, type PipelineStage } from '../packages/events/dist/index.js';
import { koaHttpServer } from '../packages/kernel-http/dist/index.js';
import { agendaSchedulerFactory } from '../packages/scheduler-agenda/dist/index.js';
import { Kernel, createLogger, defineFeature } from '../packages/kernel/dist/index.js';
import { liveUpdatesFeature } from '../packages/live-updates/dist/index.js';
import { sqliteStoreFactory } from '../packages/store-sqlite/dist/index.js';
import type { SenderReply, SenderRequest } from './event-sender.js';
import type { ClientsReply, ClientsRequest } from './stream-clients.js';

const streams = Number(process.env.BENCH_STREAMS ?? 1000);
const streamLength = Number(process.env.BENCH_EVENTS ?? 20_000);
const sampled = Math.min(streams, Number(process.env.BENCH_SAMPLED ?? 50));
const offeredRate = Number(process.env.BENCH_RATE ?? 0);
const entityCount = 10_000;
const goalP99Ms = 1000;

/** When each alarm change (`ERR-<n>`) was stored, by n. */
const storedAt = new Map<number, number>();
const latencyFeature = defineFeature({
  id: 'bench-stored',
  kernel: '^0.1.0',
  dependsOn: ['events'],
  register(f) {
    f.extend<PipelineStage>(pipelineStagesPoint, () => ({
      name: 'bench-stored',
      order: PipelineOrder.alarms + 1,
      process(context) {
        const n = /^ERR-(\d+)/.exec(String(context.event['output'] ?? ''));
        if (n) storedAt.set(Number(n[1]), Date.now());
        return Promise.resolve();
      },
    }));
  },
});

const installDir = mkdtempSync(join(tmpdir(), 'vigie-bench-stream-'));
const password = 'bench-password';
const kernel = new Kernel({
  scheduler: agendaSchedulerFactory(),
  http: koaHttpServer(),
  features: [authFeature, eventsFeature, eventsAmqpFeature, contextGraphFeature, alarmsFeature, broadcastFeature, liveUpdatesFeature, latencyFeature],
  installDir,
  env: { VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: password },
  configOverrides: {
    'webserver.conf': {
      server: { host: '127.0.0.1', port: 0, jobs_poll_ms: 1000, max_connections: streams + 100, stream_max_connections: streams + 10 },
      store: { synchronous: 'normal' },
    },
  },
  store: sqliteStoreFactory(),
  logger: createLogger({ level: 'warn' }),
});
const authorization = `Basic ${Buffer.from(`root:${password}`).toString('base64')}`;

function child<Q, A>(file: string): { ask(request: Q): Promise<A>; kill(): void } {
  const process = fork(fileURLToPath(new URL(file, import.meta.url)), { execArgv: ['--import', 'tsx'] });
  return {
    ask: (request) =>
      new Promise((resolve) => {
        process.once('message', (reply: A) => resolve(reply));
        process.send(request as object);
      }),
    kill: () => process.kill(),
  };
}

const sender = child<SenderRequest, SenderReply>('./event-sender.ts');
const clients = child<ClientsRequest, ClientsReply>('./stream-clients.ts');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const out = (line: string) => process.stdout.write(`${line}\n`);

try {
  const { url } = await kernel.start();
  const runner = kernel.scope('events').resolve(PipelineRunner);
  const processed = () => runner.stats().processed + runner.stats().failed;
  const waitProcessed = async (target: number) => {
    while (processed() < target) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const http: SenderRequest = { kind: 'http', url, authorization, batchSize: 1000, inFlight: 4, ...(offeredRate > 0 ? { rate: offeredRate } : {}) };
  /** One timed run of `streamLength` events; answers events/s and Vigie's CPU µs per event. */
  const run = async (round: number): Promise<{ rate: number; cpuUs: number }> => {
    await sender.ask({ kind: 'make', events: 'stream', length: streamLength, entities: entityCount, round });
    const target = processed() + streamLength;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await sender.ask(http);
    await waitProcessed(target);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    return { rate: streamLength / seconds, cpuUs: (cpu.user + cpu.system) / streamLength };
  };

  const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');
  out(`\nAlarm stream fan-out: ${entityCount.toLocaleString('en')} entities, ${streamLength.toLocaleString('en')} events per run (20 % changing alarms), embedded store; ${streams.toLocaleString('en')} streams, ${sampled} timed; ` +
    `events offered ${offeredRate > 0 ? `at ${offeredRate.toLocaleString('en')}/s` : 'as fast as taken'}; load average ${load()}`);
  await sender.ask({ kind: 'make', events: 'warmup', length: entityCount, entities: entityCount, round: 0 });
  const warmTarget = processed() + entityCount;
  await sender.ask(http);
  await waitProcessed(warmTarget);
  await run(0);

  const without = await run(1);

  const { open } = await clients.ask({ kind: 'open', url, authorization, streams, sampled });
  if (open !== streams) throw new Error(`only ${open} of ${streams} streams opened`);
  await clients.ask({ kind: 'report' });
  storedAt.clear();
  const withStreams = await run(2);
  // The last messages may still be on their way to the clients: give them a moment before reading the arrivals.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const report = await clients.ask({ kind: 'report' });
  const latencies: number[] = [];
  const arrivals = report.arrivals ?? [];
  for (let i = 0; i < arrivals.length; i += 2) {
    const stored = storedAt.get(arrivals[i] as number);
    if (stored !== undefined) latencies.push((arrivals[i + 1] as number) - stored);
  }
  latencies.sort((a, b) => a - b);
  const expected = (streamLength / 5) * sampled;
  const p99 = percentile(latencies, 99);
  const row = (label: string, cells: string[]) => out(`  ${label.padEnd(22)}${cells.map((cell) => cell.padStart(16)).join('')}`);
  row('', ['no stream', `${streams.toLocaleString('en')} streams`, 'ratio']);
  row('pipeline events/s', [Math.round(without.rate).toLocaleString('en'), Math.round(withStreams.rate).toLocaleString('en'), (withStreams.rate / without.rate).toFixed(2)]);
  row('Vigie CPU µs per event', [without.cpuUs.toFixed(0), withStreams.cpuUs.toFixed(0), (withStreams.cpuUs / without.cpuUs).toFixed(2)]);
  out(`  push latency   p50 ${percentile(latencies, 50)} ms, p99 ${p99} ms, max ${latencies.at(-1)} ms over ${latencies.length.toLocaleString('en')} arrivals ` +
    `(${expected.toLocaleString('en')} expected on the timed streams) (goal < ${goalP99Ms} ms: ${p99 < goalP99Ms ? 'met' : 'NOT met'})`);
  out(`  messages read  ${(report.messages ?? 0).toLocaleString('en')} on all streams; streams dropped by the server: ${report.ended ?? 0}; client CPU ${(report.cpuSeconds ?? 0).toFixed(1)} s`);
  out(`  load average at the end ${load()}`);
  await clients.ask({ kind: 'close' });
} finally {
  sender.kill();
  clients.kill();
  await kernel.stop();
  rmSync(installDir, { recursive: true, force: true });
}
process.exit(0);
