#!/usr/bin/env node
// Runs Vigie's benchmarks. `node bench/run.mjs [http|import|weather|alarms|events|stream|export|console|previews|nodes|account-read|all]` (default all); `pnpm bench` builds first.
// Every benchmark measures its baseline in the same run and prints the ratio, never an absolute pass/fail alone.
import { spawn } from 'node:child_process';
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);

function startServer(script, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'servers', script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString();
      const match = /LISTENING (\S+)/.exec(buffered);
      if (match) resolve({ url: match[1], pid: child.pid, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
  });
}

const clockTicks = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/** CPU time (user + system, ms) a process has used so far: a measure that other load on the machine barely skews. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function load(server, path, headers, seconds) {
  const url = `${server.url}${path}`;
  const cpuBefore = cpuMs(server.pid);
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
      const cpuPerRequestUs = ((cpuMs(server.pid) - cpuBefore) * 1000) / result.requests.total;
      resolve({ rps: result.requests.average, p99: result.latency.p99, cpuUs: cpuPerRequestUs });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function httpBenchmark() {
  const installDir = mkdtempSync(join(tmpdir(), 'vigie-bench-'));
  const path = '/api/v2/account/me';
  // Served by the @koa/router router the bench server mounts (tried after the kernel's route table).
  const routerPath = '/api/v2/bench-legacy/items/1';
  const auth = { authorization: `Basic ${Buffer.from('root:bench-password').toString('base64')}` };
  const vigie = await startServer('vigie.mjs', [installDir]);
  const koa = await startServer('bare-koa.mjs');
  try {
    // A server users run has served writes: one audited write first, so the figures include what a write leaves
    // behind for the requests that follow (on Node 20, an AsyncLocalStorage once entered taxed every promise).
    const written = await fetch(`${vigie.url}/api/v2/bench-legacy/items`, { method: 'POST', headers: auth });
    if (written.status !== 201) throw new Error(`the bench's audited write answered ${written.status}`);
    // Warm both (JIT, credential cache), then alternate rounds so neither gets the quieter machine.
    await load(koa, path, {}, 2);
    await load(vigie, path, auth, 2);
    await load(vigie, routerPath, auth, 2);
    const results = { koa: [], vigie: [], router: [] };
    for (let round = 0; round < rounds; round++) {
      results.koa.push(await load(koa, path, {}, duration));
      results.vigie.push(await load(vigie, path, auth, duration));
      results.router.push(await load(vigie, routerPath, auth, duration));
    }
    const summary = (list) => ({ rps: median(list.map((r) => r.rps)), p99: median(list.map((r) => r.p99)), cpuUs: median(list.map((r) => r.cpuUs)) });
    const k = summary(results.koa);
    const v = summary(results.vigie);
    const r = summary(results.router);
    // Goals of issue #28: an authenticated GET >= 0.85 of bare Koa's rate, a route of a mounted @koa/router router >= 0.75.
    const goals = [
      { name: 'authenticated GET / Koa', result: v, goal: 0.85 },
      { name: 'router route / Koa', result: r, goal: 0.75 },
    ];
    console.log(`\nHTTP: GET ${path}, ${connections} connections, ${rounds} rounds of ${duration} s each (median); Vigie mounts a @koa/router router and has served one audited write; uptime: ${execSync('uptime').toString().trim()}`);
    const line = (name, r) => `  ${name.padEnd(16)}${r.rps.toFixed(0).padStart(8)} req/s   p99 ${String(r.p99).padStart(4)} ms   ${r.cpuUs.toFixed(0).padStart(4)} µs CPU per request`;
    console.log(line('bare Koa', k));
    console.log(line("Vigie (auth'd)", v));
    console.log(line('router (auth\'d)', r) + `   GET ${routerPath}, answered by the router`);
    for (const { name, result, goal } of goals) {
      const ratio = result.rps / k.rps;
      console.log(`  ratio ${name.padEnd(24)} ${ratio.toFixed(2)} in requests/s (goal >= ${goal.toFixed(2)}: ${ratio >= goal ? 'met' : 'NOT met'}); ${(k.cpuUs / result.cpuUs).toFixed(2)} in CPU per request`);
    }
  } finally {
    await vigie.stop();
    await koa.stop();
    rmSync(installDir, { recursive: true, force: true });
  }
}

/**
 * Benchmarks written in TypeScript run through the TypeScript loader, importing the packages' sources like the
 * tests, or their compiled output (`compiled`: what the server runs; `pnpm build` first).
 */
function sourceBenchmark(file, { compiled = false, gc = false, env = {} } = {}) {
  const entry = join(here, file);
  if (!existsSync(entry)) {
    console.log(`\n${file}: not present in this checkout`);
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(compiled ? [] : ['--conditions=vigie-source']), ...(gc ? ['--expose-gc'] : []), '--import', 'tsx', entry], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.base.json'), ...env },
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited with ${code}`))));
  });
}

/**
 * The console's first screen: the scripts its page loads before showing anything (the entry and the modules it
 * preloads), gzipped, against the 250 KB budget of issue 25. Reads the build `pnpm bench` just made.
 */
function consoleBudget() {
  const appDir = join(root, 'packages', 'console', 'dist', 'app');
  const page = readFileSync(join(appDir, 'index.html'), 'utf8');
  const scripts = [...page.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/console\/([^"]+\.js)"/g)].map((m) => m[1]);
  const budget = 250 * 1024;
  let total = 0;
  console.log('\nConsole first screen (gzip -9 of each script the page loads at start):');
  for (const script of scripts) {
    const raw = readFileSync(join(appDir, script));
    const gzipped = gzipSync(raw, { level: 9 }).length;
    total += gzipped;
    console.log(`  ${script.padEnd(36)}${(raw.length / 1024).toFixed(1).padStart(8)} KB raw ${(gzipped / 1024).toFixed(1).padStart(7)} KB gzip`);
  }
  console.log(`  total ${(total / 1024).toFixed(1)} KB gzip of a ${budget / 1024} KB budget (${((total / budget) * 100).toFixed(0)}%)`);
  if (total > budget) process.exitCode = 1;
}

const benchmarks = {
  http: httpBenchmark,
  import: () => sourceBenchmark('context-graph-import.ts', { gc: true }),
  weather: () => sourceBenchmark('weather-pbehaviors.ts'),
  alarms: () => sourceBenchmark('alarm-list.ts'),
  // The reference server as users run it: first with its default settings (no broker: the HTTP line of the goal),
  // then with `[amqp] url` set (the AMQP line, and the HTTP line with alarm notices relayed through the broker);
  // then the trimmed composition for comparison. Each in its own process; `BENCH_COMPOSITION=full` or `trimmed`
  // runs one composition, `BENCH_AMQP=0` leaves out the runs with a broker.
  events: async () => {
    const compositions = process.env.BENCH_COMPOSITION ? [process.env.BENCH_COMPOSITION] : ['full', 'trimmed'];
    const withBroker = process.env.BENCH_AMQP !== '0';
    for (const composition of compositions) {
      if (composition === 'full') await sourceBenchmark('events-pipeline.ts', { compiled: true, gc: true, env: { BENCH_COMPOSITION: composition, BENCH_AMQP: '0' } });
      if (composition !== 'full' || withBroker) await sourceBenchmark('events-pipeline.ts', { compiled: true, gc: true, env: { BENCH_COMPOSITION: composition } });
    }
  },
  stream: () => sourceBenchmark('alarm-stream.ts', { compiled: true }),
  export: () => sourceBenchmark('alarm-export.ts', { compiled: true, gc: true }),
  console: async () => {
    consoleBudget();
    await sourceBenchmark('console-list.ts', { compiled: true });
  },
  previews: () => sourceBenchmark('previews-calendar.ts'),
  nodes: () => sourceBenchmark('nodes-pipeline.ts'),
  'account-read': () => sourceBenchmark('account-read.ts'),
};

const wanted = process.argv[2] ?? 'all';
const names = wanted === 'all' ? Object.keys(benchmarks) : [wanted];
for (const name of names) {
  const run = benchmarks[name];
  if (!run) {
    console.error(`unknown benchmark ${name}; choose among ${Object.keys(benchmarks).join(', ')}, all`);
    process.exit(2);
  }
  await run();
}
