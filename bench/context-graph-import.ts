// Context graph import benchmark: 100,000 entities and 100,000 links through the real import path — HTTP PUT of
// the body, the body streamed to a file, the `import.process` job, the atomic commit — on the embedded SQLite store
// (durable writes, `synchronous = full`), in this process. Prints the wall time from submission to `done` and the
// peak resident memory of the process, against the goals (10 s, 1 GiB).
//
//   TSX_TSCONFIG_PATH=tsconfig.base.json node --conditions=vigie-source --import tsx bench/context-graph-import.ts
//
// A second run submits the same document again over the graph the first one built: every entity is then a full
// replacement of a stored one (no goal; shown for comparison). The package sources are imported by path: the bench
// package does not depend on the feature packages.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authFeature } from '../packages/auth/src/index.js';
import { contextGraphFeature } from '../packages/context-graph/src/index.js';
import { eventsFeature } from '../packages/events/src/index.js';
import { importFeature } from '../packages/import/src/index.js';
import { Kernel, createLogger } from '../packages/kernel/src/index.js';
import { agendaSchedulerFactory } from '../packages/scheduler-agenda/src/index.js';
import { sqliteStoreFactory } from '../packages/store-sqlite/src/index.js';

const entityCount = 100_000;
const linkCount = 100_000;
const goalSeconds = 10;
const goalBytes = 1024 ** 3;

/**
 * A realistic estate: 100 connectors, 9,900 components, 90,000 resources (`<resource>/<component>` ids) with a few
 * infos each; links resource → component and component → connector (100,000 in all, `from` as the spec's string).
 */
function importBody(): string {
  const connectors = 100;
  const components = 9_900;
  const resources = entityCount - connectors - components;
  const cis: unknown[] = [];
  const links: unknown[] = [];
  const info = (name: string, value: string) => ({ name, description: `${name} of the entity`, value });
  for (let i = 0; i < connectors; i++) cis.push({ _id: `connector-${i}/poller`, type: 'connector', action: 'create', infos: { site: info('site', `dc-${i % 4}`) } });
  for (let i = 0; i < components; i++) {
    cis.push({ _id: `host-${i}`, type: 'component', name: `host ${i}`, action: 'create', infos: { site: info('site', `dc-${i % 4}`), owner: info('owner', `team-${i % 50}`) } });
  }
  for (let i = 0; i < resources; i++) {
    cis.push({ _id: `check-${i}/host-${i % components}`, type: 'resource', action: 'create', measurements: ['latency'], infos: { criticality: info('criticality', String(i % 5)) } });
  }
  for (let i = 0; i < resources; i++) links.push({ _id: `l${i}`, from: `check-${i}/host-${i % components}`, to: `host-${i % components}`, action: 'create' });
  for (let i = links.length; i < linkCount; i++) links.push({ _id: `l${i}`, from: `host-${i % components}`, to: `connector-${i % connectors}/poller`, action: 'create' });
  return JSON.stringify({ json: { cis, links } });
}

const installDir = mkdtempSync(join(tmpdir(), 'vigie-bench-import-'));
const password = 'bench-password';
const kernel = new Kernel({
  features: [authFeature, eventsFeature, contextGraphFeature, importFeature],
  installDir,
  env: { VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: password },
  configOverrides: { 'webserver.conf': { server: { host: '127.0.0.1', port: 0, jobs_poll_ms: 100 } } },
  store: sqliteStoreFactory(),
  scheduler: agendaSchedulerFactory(),
  logger: createLogger({ level: 'warn' }),
});

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;

async function timedImport(url: string, body: string): Promise<{ seconds: number; cpuSeconds: number; status: Record<string, unknown> }> {
  const headers = { authorization: `Basic ${Buffer.from(`root:${password}`).toString('base64')}`, 'content-type': 'application/json' };
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const submitted = await fetch(`${url}/api/contextgraph/import`, { method: 'PUT', headers, body });
  if (submitted.status !== 200) throw new Error(`submission answered ${submitted.status}: ${await submitted.text()}`);
  const id = ((await submitted.json()) as { data: { import_id: string }[] }).data[0]?.import_id as string;
  // Polled as a user would, every 20 ms (a negligible error on seconds). While the import holds the event loop, the
  // server may close an idle kept-alive connection just as a poll reuses it: that poll is simply tried again.
  let final: Record<string, unknown> = {};
  do {
    await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      final = (await (await fetch(`${url}/api/contextgraph/import/status/${id}`, { headers })).json()) as Record<string, unknown>;
    } catch (err) {
      if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
    }
  } while (final.status !== 'done' && final.status !== 'failed');
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  if (final.status !== 'done') throw new Error(`the import ended ${JSON.stringify(final)}`);
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, status: final };
}

try {
  const { url } = await kernel.start();
  const body = importBody();
  const rssBefore = process.memoryUsage().rss;
  const first = await timedImport(url, body);
  // maxRSS: the process's peak resident set so far, in KiB.
  const peak = process.resourceUsage().maxRSS * 1024;
  const second = await timedImport(url, body);
  const peakAfterSecond = process.resourceUsage().maxRSS * 1024;

  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`\nImport: ${entityCount.toLocaleString('en')} entities and ${linkCount.toLocaleString('en')} links (body ${mib(body.length)}), embedded SQLite store`);
  const times = (run: { seconds: number; cpuSeconds: number }) => `${run.seconds.toFixed(2).padStart(6)} s wall, ${run.cpuSeconds.toFixed(2).padStart(6)} s CPU`;
  out(`  into an empty graph    ${times(first)}   stats ${JSON.stringify(first.status.stats)}`);
  out(`  again over that graph  ${times(second)}   (every entity a full replacement)`);
  out(`  peak memory (maxRSS)   ${mib(peak)} after the first import, ${mib(peakAfterSecond)} after both (RSS before: ${mib(rssBefore)})`);
  const timeRatio = first.seconds / goalSeconds;
  const memoryRatio = peak / goalBytes;
  out(`  ratio to goal          time ${timeRatio.toFixed(2)} of ${goalSeconds} s (${timeRatio < 1 ? 'met' : 'NOT met'}), memory ${memoryRatio.toFixed(2)} of 1 GiB (${memoryRatio < 1 ? 'met' : 'NOT met'})`);
  out('  original (docs sample): 20,000 entities in 00:03:58');
} finally {
  await kernel.stop();
  rmSync(installDir, { recursive: true, force: true });
}
// Agenda leaves a timer (half a job's lock lifetime, 5 minutes) after every job run, even once stopped.
process.exit(0);
