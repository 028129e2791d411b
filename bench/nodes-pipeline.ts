// Several nodes benchmark: check events published to RabbitMQ and processed end to end (event filter, entities,
// alarms, the reference server's every feature) by one node on the embedded store, one node on PostgreSQL, and two
// nodes on one PostgreSQL database sharing the partitions (`preferred_partitions` 0-7 and 8-15), one after the other
// in one run. Each node is its own process. Prints per setup: events/s from the first publish to the last event
// processed, and the CPU the nodes, PostgreSQL and the broker used per event (from /proc: less skewed by other load
// than wall time), with the load average beside them.
//
//   node bench/run.mjs nodes     (BENCH_EVENTS: events per setup, default 20000; BENCH_ENTITIES, default 2000;
//                                 needs PostgreSQL and RabbitMQ on loopback)
//
// Every event changes its entity's alarm (states cycle 1, 2, 3): the expensive path, with a store write per event.
import { spawn, type ChildProcess } from 'node:child_process';
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'amqplib';
import { createTestDatabase } from '../packages/store-postgres/src/testing.js';

const eventCount = Number(process.env.BENCH_EVENTS ?? 20_000);
const entityCount = Number(process.env.BENCH_ENTITIES ?? 2_000);
const amqpUrl = 'amqp://guest:guest@127.0.0.1:5672';
const partitions = 16;
const server = fileURLToPath(new URL('./nodes-server.ts', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const clockTicks = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** CPU seconds of every process whose command name is `name` (the broker's `beam.smp`, `postgres`). */
function cpuOf(name: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name) total += cpuSeconds(Number(pid));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

interface Node {
  child: ChildProcess;
  processed: number;
  stop(): Promise<void>;
}

function startNode(installDir: string): Promise<Node> {
  const child = spawn(process.execPath, ['--conditions=vigie-source', '--import', 'tsx', server, installDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.base.json'), VIGIE_ADMIN_PASSWORD: 'bench-password' },
  });
  return new Promise((resolve, reject) => {
    const node: Node = {
      child,
      processed: 0,
      stop: () => new Promise((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))),
    };
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('LISTENING ')) resolve(node);
        else if (line.startsWith('PROCESSED ')) node.processed = Number(line.slice('PROCESSED '.length));
      }
    });
    child.once('exit', (code) => reject(new Error(`a node exited with ${code} before listening`)));
  });
}

function installation(store: string, amqp: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigie-bench-nodes-'));
  mkdirSync(join(dir, 'etc'));
  const amqpLines = Object.entries(amqp).map(([key, value]) => `${key} = ${value}`);
  writeFileSync(join(dir, 'etc', 'webserver.conf'), ['[store]', store, '', '[amqp]', ...amqpLines, '', '[log]', 'level = warn', ''].join('\n'));
  return dir;
}

interface Result {
  name: string;
  rate: number;
  nodeCpuMsPerEvent: number;
  postgresCpuMsPerEvent: number;
  brokerCpuMsPerEvent: number;
  load: string;
}

async function measure(name: string, stores: string[], preferred: string[]): Promise<Result> {
  const run = Math.random().toString(36).slice(2, 8);
  const amqp = { url: amqpUrl, exchange: `vigie-bench-${run}.events`, queue_prefix: `vigie-bench-${run}`, partitions: String(partitions) };
  const dirs = stores.map((store, i) => installation(store, { ...amqp, ...(preferred[i] ? { preferred_partitions: preferred[i], standby_delay: '60s' } : {}) }));
  const nodes: Node[] = [];
  // One after the other: the first makes the administrator account.
  for (const dir of dirs) nodes.push(await startNode(dir));
  const broker = await connect(amqpUrl);
  const channel = await broker.createConfirmChannel();
  try {
    await channel.assertExchange(amqp.exchange, 'topic', { durable: true });
    const events = Array.from({ length: eventCount }, (_, i) => ({
      event_type: 'check', source_type: 'resource', connector: 'bench', connector_name: 'bench-1', component: `host-${i % entityCount}`,
      resource: 'cpu', state: 1 + (Math.floor(i / entityCount) % 3), output: `event ${i}`,
    }));
    const nodeCpu = () => nodes.reduce((sum, node) => sum + cpuSeconds(node.child.pid!), 0);
    const before = { node: nodeCpu(), postgres: cpuOf('postgres'), broker: cpuOf('beam.smp') };
    const start = performance.now();
    for (const event of events) channel.publish(amqp.exchange, 'event', Buffer.from(JSON.stringify(event)), { persistent: true });
    await channel.waitForConfirms();
    while (nodes.reduce((sum, node) => sum + node.processed, 0) < eventCount) await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = (performance.now() - start) / 1000;
    const perEvent = (cpu: number) => (cpu * 1000) / eventCount;
    return {
      name,
      rate: eventCount / seconds,
      nodeCpuMsPerEvent: perEvent(nodeCpu() - before.node),
      postgresCpuMsPerEvent: perEvent(cpuOf('postgres') - before.postgres),
      brokerCpuMsPerEvent: perEvent(cpuOf('beam.smp') - before.broker),
      load: loadavg().map((value) => value.toFixed(1)).join(' '),
    };
  } finally {
    for (const suffix of ['intake', 'dead', ...Array.from({ length: partitions }, (_, k) => `p${k}`)]) await channel.deleteQueue(`${amqp.queue_prefix}.${suffix}`);
    await channel.deleteExchange(amqp.exchange);
    await broker.close();
    for (const node of nodes) await node.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const line = (r: Result) =>
  console.log(`  ${r.name.padEnd(26)}${r.rate.toFixed(0).padStart(9)}   ${r.nodeCpuMsPerEvent.toFixed(2).padStart(23)}${r.postgresCpuMsPerEvent.toFixed(2).padStart(10)}${r.brokerCpuMsPerEvent.toFixed(2).padStart(8)}   ${r.load}`);

// Each line as soon as measured: on a loaded machine a setup can take minutes.
console.log(`\nNodes: ${eventCount} check events over ${entityCount} entities, each changing its alarm, published to RabbitMQ`);
console.log('  setup                      events/s   CPU ms per event: nodes  postgres  broker   load average (1, 5, 15 min)');
const results: Result[] = [];
results.push(await measure('1 node, embedded store', ['adapter = sqlite'], []));
line(results[0]!);
for (const [name, count] of [['1 node, PostgreSQL', 1], ['2 nodes, one PostgreSQL', 2]] as const) {
  const database = await createTestDatabase();
  try {
    const store = `url = ${database.url}\npool_size = 10`;
    results.push(await measure(name, Array.from({ length: count }, () => store), count === 2 ? ['0-7', '8-15'] : []));
    line(results.at(-1)!);
  } finally {
    await database.drop();
  }
}
const [embedded, onePg, twoPg] = results as [Result, Result, Result];
console.log(`  two nodes / one node on PostgreSQL: ${(twoPg.rate / onePg.rate).toFixed(2)} × the events/s; PostgreSQL / embedded, one node: ${(onePg.rate / embedded.rate).toFixed(2)} ×`);
