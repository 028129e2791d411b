// Event pipeline benchmark: check events through the whole pipeline on the embedded SQLite store, in this process.
// By default the reference server exactly as `vigie serve` composes it (`createServerKernel` over a fresh install:
// every default feature, default settings, `synchronous = full`, metrics on); `BENCH_COMPOSITION=trimmed` runs the
// composition this benchmark used before (events, event filter, context graph, alarms, auth) for comparison, and
// run.mjs runs the full composition with its defaults (no broker, `BENCH_AMQP=0`) and with `[amqp] url` set, then the
// trimmed one, each in its own process. 100 event-filter rules (drop, break, enrichments with regexes and
// templates); 10,000 entities; a stream of check events of which 20 % create or change alarms (2,000 alarmed
// entities cycling through states 1-3), the others OK events on quiet entities. A separate process
// (bench/event-sender.ts), as connectors are, sends them as HTTP batches (500 events, 8 requests in flight), then
// (when RabbitMQ answers on 127.0.0.1:5672) publishes them to the AMQP exchange, after measuring the broker alone
// with the same messages and a consumer that only acknowledges them (the floor). Prints events/s from the first send
// to the last event processed, the CPU of this process per event, and p50/p99 latency: for the full composition from
// acceptance to the alarm change read on `GET /api/v2/alarms/stream` by the sender (readable through the API); for
// the trimmed one (no stream route) to the change stored, by a stage right after the alarms stage.
//
//   pnpm build && node bench/run.mjs events        (BENCH_EVENTS: events per stream, default 100000;
//                                                    BENCH_ENTITIES: default 10000 (a fifth get alarms);
//                                                    BENCH_BATCH: events per request, default 500;
//                                                    BENCH_IN_FLIGHT: requests in flight, default 8;
//                                                    BENCH_AMQP_BATCH: events per AMQP message, default 1;
//                                                    BENCH_AMQP=0: HTTP only, no `[amqp] url` (the default);
//                                                    BENCH_ALARMS=0: the alarmed fifth sent OK too (memory baseline);
//                                                    BENCH_SYNCHRONOUS: full (default) or normal;
//                                                    BENCH_CPU_PROF=<dir>: CPU profile of each timed stream (HTTP, AMQP);
//                                                    VIGIE_*: settings of the full composition's server)
//
// It runs the compiled packages (`dist`, as the server does), not the sources: the TypeScript loader lowers the
// private members of decorated classes into helper calls, which cost some 10 % of the pipeline's CPU.
import { connect as tcpConnect } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect as amqpConnect, type ConsumeMessage } from 'amqplib';
import { alarmsFeature } from '../packages/alarms/dist/index.js';
import { authFeature } from '../packages/auth/dist/index.js';
import { contextGraphFeature } from '../packages/context-graph/dist/index.js';
import { eventFilterFeature } from '../packages/eventfilter/dist/index.js';
import { eventsAmqpFeature, eventsFeature, pipelineStagesPoint, PipelineOrder, PipelineRunner, type PipelineStage } from '../packages/events/dist/index.js';
import { Kernel, createLogger, defineFeature } from '../packages/kernel/dist/index.js';
import { koaHttpServer } from '../packages/kernel-http/dist/index.js';
import { agendaSchedulerFactory } from '../packages/scheduler-agenda/dist/index.js';
import { sqliteStoreFactory } from '../packages/store-sqlite/dist/index.js';
import { createServerKernel } from '../apps/server/dist/index.js';
import type { SenderReply, SenderRequest } from './event-sender.js';

const streamLength = Number(process.env.BENCH_EVENTS ?? 100_000);
const entityCount = Number(process.env.BENCH_ENTITIES ?? 10_000);
const batchSize = Number(process.env.BENCH_BATCH ?? 500);
const requestsInFlight = Number(process.env.BENCH_IN_FLIGHT ?? 8);
/** Events per AMQP message (a list when more than 1): 1, as connectors publish, by default. */
const amqpBatch = Number(process.env.BENCH_AMQP_BATCH ?? 1);
const goalRate = 20_000;
const goalP99Ms = 1_000;

const amqpUrl = 'amqp://guest:guest@127.0.0.1:5672';
const amqpReachable = process.env.BENCH_AMQP !== '0' && await new Promise<boolean>((resolve) => {
  const socket = tcpConnect({ host: '127.0.0.1', port: 5672 });
  socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false));
});
const run = Math.random().toString(36).slice(2, 8);
const exchange = `vigie-bench-${run}.events`;
const queuePrefix = `vigie-bench-${run}`;

/** Acceptance-to-stored latencies (ms) of the events that reached the stage after the alarms stage. */
const latencies: number[] = [];
let processed = 0;
const latencyFeature = defineFeature({
  id: 'bench-latency',
  kernel: '^0.1.0',
  dependsOn: ['events'],
  register(f) {
    f.extend<PipelineStage>(pipelineStagesPoint, () => ({
      name: 'bench-latency',
      order: PipelineOrder.alarms + 1,
      process(context) {
        latencies.push(Date.now() - context.acceptedAt);
        return Promise.resolve();
      },
    }));
  },
});

/**
 * `full` (default): the reference server exactly as `vigie serve` composes it (`createServerKernel`, a fresh install's
 * default configuration: every feature, `synchronous = full`, metrics on). `trimmed`: the composition this benchmark
 * used before (events, event filter, context graph, alarms, auth), kept for comparison. run.mjs runs both, each in
 * its own process.
 */
const composition = process.env.BENCH_COMPOSITION === 'trimmed' ? 'trimmed' : 'full';
/** `full` (a fresh install's default): fsync each commit; `normal`: WAL commits survive a process crash, not a power loss. */
const synchronous = process.env.BENCH_SYNCHRONOUS ?? 'full';
/** When set, a directory where the CPU profile of each timed stream is written (summed by bench/profile-summary.mjs). */
const profileDir = process.env.BENCH_CPU_PROF;
/** When set, a directory where the sampled allocations of each timed stream are written (`.heapprofile`). */
const allocationProfileDir = process.env.BENCH_ALLOC_PROF;
const installDir = mkdtempSync(join(tmpdir(), 'vigie-bench-events-'));
const password = 'bench-password';
const amqpSettings = { url: amqpUrl, exchange, queue_prefix: queuePrefix };
const kernel = composition === 'full'
  ? await createServerKernel({
      installDir,
      host: '127.0.0.1',
      port: 0,
      env: {
        VIGIE_ADMIN_USER: 'root',
        VIGIE_ADMIN_PASSWORD: password,
        VIGIE_LOG__LEVEL: 'warn',
        VIGIE_STORE__SYNCHRONOUS: synchronous,
        ...(amqpReachable ? { VIGIE_AMQP__URL: amqpUrl, VIGIE_AMQP__EXCHANGE: exchange, VIGIE_AMQP__QUEUE_PREFIX: queuePrefix } : {}),
        // Settings to try, as `vigie serve` reads them (`VIGIE_ENGINE__MAX_WAITING_EVENTS=10000`, `VIGIE_AMQP__PREFETCH`).
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('VIGIE_'))),
      },
    })
  : new Kernel({
      features: [authFeature, eventsFeature, ...(amqpReachable ? [eventsAmqpFeature] : []), contextGraphFeature, eventFilterFeature, alarmsFeature, latencyFeature],
      installDir,
      env: { VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: password },
      configOverrides: {
        'webserver.conf': {
          server: { host: '127.0.0.1', port: 0, jobs_poll_ms: 1000 },
          store: { synchronous },
          ...(amqpReachable ? { amqp: amqpSettings } : {}),
        },
      },
      store: sqliteStoreFactory(),
      scheduler: agendaSchedulerFactory(),
      http: koaHttpServer(),
      logger: createLogger({ level: 'warn' }),
    });
const authorization = `Basic ${Buffer.from(`root:${password}`).toString('base64')}`;
const headers = { authorization, 'content-type': 'application/json' };

/** 100 rules: 20 drop and 10 break rules on names that rarely match, 70 enrichments with regexes and templates. */
function rules(): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [];
  for (let i = 0; i < 20; i++) list.push({ type: 'drop', priority: i, pattern: { component: { regex_match: `^decommissioned-${i}-\\d+$` } } });
  for (let i = 0; i < 10; i++) list.push({ type: 'break', priority: 20 + i, patterns: [{ connector: `legacy-${i}` }, { output: { regex_match: `^maintenance ${i}:` } }] });
  for (let i = 0; i < 70; i++) {
    const everyEvent = i % 14 === 0; // 5 rules apply to every event, the others to a slice of the estate
    list.push({
      type: 'enrichment',
      priority: 30 + i,
      pattern: everyEvent ? { connector: 'bench' } : { component: { regex_match: `^host-${i}\\d*$` }, output: { regex_match: '(?P<code>[A-Z]+)-(?P<num>\\d+)' } },
      actions: everyEvent
        ? [{ type: 'set_field_from_template', name: `site_${i}`, value: 'dc-{{.Event.Component}}' }]
        : [
            { type: 'set_field_from_template', name: 'ticket_ref', value: '{{.RegexMatch.Output.code}}/{{.RegexMatch.Output.num}}' },
            { type: 'set_field', name: `team_${i}`, value: `team-${i}` },
          ],
      on_success: 'pass',
      on_failure: 'pass',
    });
  }
  return list;
}

async function waitProcessed(target: number): Promise<void> {
  while (processed < target) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The connectors: one child process that makes the streams and sends them (bench/event-sender.ts). */
const sender = fork(fileURLToPath(new URL('./event-sender.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
sender.once('exit', (code) => {
  if (code !== 0 && code !== null) {
    process.stderr.write(`the event sender exited with ${code}\n`);
    process.exit(1);
  }
});
function ask(request: SenderRequest): Promise<SenderReply> {
  return new Promise((resolve) => {
    sender.once('message', (reply: SenderReply) => resolve(reply));
    sender.send(request);
  });
}

/**
 * CPU seconds the RabbitMQ server (`beam.smp`, on this machine) has used so far, or undefined where /proc does not
 * show it: the broker shares the cores with the pipeline, so its work per event counts too.
 */
function brokerCpuSeconds(): number | undefined {
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(beam.smp)')) continue;
      // utime and stime, in clock ticks (100 a second on Linux), after the parenthesised command name.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    }
  } catch {
    // Not Linux, or the process went away.
  }
  return undefined;
}

/** `, broker N s` of CPU since `before` (a `brokerCpuSeconds()` reading), or nothing where it cannot be read. */
function brokerCpuSince(before: number | undefined): string {
  const after = before === undefined ? undefined : brokerCpuSeconds();
  return after === undefined || before === undefined ? '' : `, broker ${(after - before).toFixed(1)} s`;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Starts recording a timed stream in an inspector session: its CPU profile, or every allocation sampled, collected or
 * not (what the stream allocates, not what it keeps). The function returned stops and saves the recording, named
 * after this run (composition, with or without a broker) and the stream, and answers the file's path.
 */
async function startRecording(dir: string, label: string, kind: 'cpu' | 'allocations'): Promise<() => Promise<string>> {
  const session = new Session();
  session.connect();
  if (kind === 'cpu') {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  } else {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  return async () => {
    const { profile } = kind === 'cpu' ? await session.post('Profiler.stop') : await session.post('HeapProfiler.stopSampling');
    const run = `${composition}${amqpReachable ? '-amqp' : ''}`;
    const file = join(dir, `events-${run}-${label.toLowerCase()}.${kind === 'cpu' ? 'cpuprofile' : 'heapprofile'}`);
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    return file;
  };
}

/** Times one stream: `send` asks the sender process to send what it made; the clock stops at the last event processed. */
async function measured(label: string, send: SenderRequest, count: number, broker = false): Promise<number> {
  latencies.length = 0;
  const target = processed + count;
  const timed = label !== 'warmup';
  const stopCpuProfile = timed && profileDir !== undefined ? await startRecording(profileDir, label, 'cpu') : undefined;
  const stopAllocationProfile = timed && allocationProfileDir !== undefined ? await startRecording(allocationProfileDir, label, 'allocations') : undefined;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const brokerBefore = broker ? brokerCpuSeconds() : undefined;
  const { cpuSeconds: senderCpu } = await ask(send);
  const sentAfter = (performance.now() - started) / 1000;
  await waitProcessed(target);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const brokerCpu = brokerCpuSince(brokerBefore);
  if (stopCpuProfile) {
    const file = await stopCpuProfile();
    out(`  CPU profile of the ${label} stream: ${file} (per package: node bench/profile-summary.mjs ${file} ${count} ${((cpu.user + cpu.system) / 1e6).toFixed(2)})`);
  }
  if (stopAllocationProfile) out(`  allocation profile of the ${label} stream: ${await stopAllocationProfile()}`);
  // Full composition: latency to the change read on the alarm stream (the API), measured by the sender. Trimmed (no
  // stream route): latency to the change stored, measured by a stage after the alarms stage.
  const alarmsChange = label !== 'warmup' && process.env.BENCH_ALARMS !== '0';
  const throughApi = composition === 'full' && alarmsChange;
  const api = throughApi ? await ask({ kind: 'latencies', waitMs: 10_000 }) : undefined;
  const sorted = api?.latencies ?? [...latencies].sort((a, b) => a - b);
  const rate = count / seconds;
  const p99 = percentile(sorted, 99);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  out(
    `  ${label.padEnd(6)} ${count.toLocaleString('en')} events in ${seconds.toFixed(2)} s (sent in ${sentAfter.toFixed(2)} s; CPU: Vigie ${cpuSeconds.toFixed(1)} s = ${((cpuSeconds * 1e6) / count).toFixed(0)} µs/event, sender ${senderCpu.toFixed(1)} s${brokerCpu}): ` +
      `${Math.round(rate).toLocaleString('en')} events/s (${(rate / goalRate).toFixed(2)} of the ${goalRate.toLocaleString('en')}/s goal); ` +
      (sorted.length === 0
        ? `no latency measured (${alarmsChange ? 'none seen' : 'no alarm changes'})`
        : `${throughApi ? 'accepted to readable on the alarm stream' : 'accepted to stored'} p50 ${percentile(sorted, 50)} ms, p99 ${p99} ms (goal < ${goalP99Ms} ms: ${p99 < goalP99Ms ? 'met' : 'NOT met'})`) +
      (api?.missing ? `; ${api.missing} changes not seen on the stream within 10 s` : ''),
  );
  return rate;
}

/**
 * The broker alone: the same messages, published the same way, through a durable queue to a consumer that only
 * acknowledges them, in groups as Vigie's intake does (up to 1,000 messages or 5 ms). What it reaches bounds what
 * any consumer of this RabbitMQ, on this machine, can reach. Returns messages/s.
 */
async function brokerFloor(count: number): Promise<number> {
  const connection = await amqpConnect(amqpUrl);
  const channel = await connection.createChannel();
  const floorExchange = `${exchange}.floor`;
  const queue = `${queuePrefix}.floor`;
  await channel.assertExchange(floorExchange, 'topic', { durable: true });
  await channel.assertQueue(queue, { durable: true, arguments: { 'x-single-active-consumer': true } });
  await channel.bindQueue(queue, floorExchange, '#');
  await channel.prefetch(1000);
  const messages = Math.ceil(count / amqpBatch);
  let received = 0;
  let unacknowledged: ConsumeMessage | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  const acknowledge = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (unacknowledged) channel.ack(unacknowledged, true);
    unacknowledged = undefined;
  };
  let consumed = () => {};
  const allConsumed = new Promise<void>((resolve) => (consumed = resolve));
  await channel.consume(queue, (message) => {
    if (!message) return;
    unacknowledged = message;
    if (++received % 1000 === 0) acknowledge();
    else flushTimer ??= setTimeout(acknowledge, 5);
    if (received >= messages) consumed();
  });
  const started = performance.now();
  const brokerBefore = brokerCpuSeconds();
  const { cpuSeconds: senderCpu } = await ask({ kind: 'amqp', url: amqpUrl, exchange: floorExchange, perMessage: amqpBatch });
  await allConsumed;
  acknowledge();
  const seconds = (performance.now() - started) / 1000;
  const brokerCpu = brokerCpuSince(brokerBefore);
  const rate = count / seconds;
  out(
    `  floor  ${messages.toLocaleString('en')} messages in ${seconds.toFixed(2)} s (CPU: sender ${senderCpu.toFixed(1)} s${brokerCpu}): ` +
      `${Math.round(rate).toLocaleString('en')} events/s through RabbitMQ to a consumer that only acknowledges them`,
  );
  await channel.deleteQueue(queue);
  await channel.deleteExchange(floorExchange);
  await connection.close();
  return rate;
}

/** The heap still in use after full collections (the benchmark runs with `--expose-gc`). */
function liveHeap(): number {
  const gc = globalThis.gc as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

try {
  const { url } = await kernel.start();
  const runner = kernel.scope('events').resolve(PipelineRunner);
  // Count every processed or dropped event through the runner's statistics.
  const counter = setInterval(() => {
    const stats = runner.stats();
    processed = stats.processed + stats.failed;
  }, 2);
  for (const rule of rules()) {
    const res = await fetch(`${url}/api/v2/eventfilter/rules`, { method: 'POST', headers, body: JSON.stringify(rule) });
    if (res.status !== 200) throw new Error(`rule refused: ${await res.text()}`);
  }
  const broker = amqpReachable ? '`[amqp] url` set: events also over AMQP, alarm notices relayed through the broker' : 'no broker, as a fresh install runs';
  const description = composition === 'full' ? `the reference server as \`vigie serve\` composes it (${kernel.featureIds().length} features; ${broker})` : 'trimmed composition (events, event filter, context graph, alarms, auth)';
  out(`\nEvent pipeline, ${description}: ${entityCount.toLocaleString('en')} entities, 100 event-filter rules, embedded SQLite store (synchronous = ${synchronous}); ${streamLength.toLocaleString('en')} events per stream, ${process.env.BENCH_ALARMS === '0' ? 'all OK (BENCH_ALARMS=0: no alarm)' : '20 % changing alarms'}; batches of ${batchSize}, ${requestsInFlight} in flight; load: ${execSync('uptime').toString().trim()}`);
  if (composition === 'full') await ask({ kind: 'watch', url, authorization });
  const http: SenderRequest = { kind: 'http', url, authorization, batchSize, inFlight: requestsInFlight };
  // Warm-up: one OK event per entity creates the 10,000 entities (and their links); not part of the figures.
  await ask({ kind: 'make', events: 'warmup', length: entityCount, entities: entityCount, round: 0 });
  await measured('warmup', http, entityCount);
  // The streams are made before the clock starts: what is timed is sending them (JSON included) and processing them.
  await ask({ kind: 'make', events: 'stream', length: streamLength, entities: entityCount, round: 0 });
  await measured('HTTP', http, streamLength);
  if (amqpReachable) {
    await ask({ kind: 'make', events: 'stream', length: streamLength, entities: entityCount, round: 1 });
    const floor = await brokerFloor(streamLength);
    await ask({ kind: 'latencies', waitMs: 0 }); // the floor's publications reach no alarm
    const rate = await measured('AMQP', { kind: 'amqp', url: amqpUrl, exchange, perMessage: amqpBatch }, streamLength, true);
    out(`         AMQP: ${((100 * rate) / floor).toFixed(0)} % of the broker floor`);
  } else out(`  AMQP   skipped: ${process.env.BENCH_AMQP === '0' ? 'no `[amqp] url` (BENCH_AMQP=0)' : 'RabbitMQ is not reachable on 127.0.0.1:5672'}`);
  clearInterval(counter);
  const alarms = await (await fetch(`${url}/alerts/get-alarms?limit=1`, { headers })).json() as { data: { total: number }[] };
  out(`  open alarms at the end: ${alarms.data[0]?.total}; pipeline ${JSON.stringify(runner.stats())}`);
  out(`  memory: resident ${mib(process.memoryUsage().rss)} at the end, peak (maxRSS) ${mib(process.resourceUsage().maxRSS * 1024)}`);
  if (typeof globalThis.gc === 'function') {
    await runner.whenIdle();
    out(`  live heap after full collections: ${mib(liveHeap())} (compare with BENCH_ALARMS=0, the same run without alarms, for the memory per open alarm)`);
  }
  out('  original (documented load test): about 1,000 events/s');
} finally {
  sender.kill();
  await kernel.stop();
  if (amqpReachable) {
    const connection = await amqpConnect(amqpUrl);
    const channel = await connection.createChannel();
    for (const suffix of ['intake', 'dead', ...Array.from({ length: 16 }, (_, k) => `p${k}`)]) await channel.deleteQueue(`${queuePrefix}.${suffix}`);
    await channel.deleteExchange(exchange);
    await connection.close();
  }
  rmSync(installDir, { recursive: true, force: true });
}
process.exit(0);
