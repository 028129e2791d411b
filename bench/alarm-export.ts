// Alarm export benchmark: BENCH_ALARMS (default 1,000,000) open alarms stored directly (memory store: the document
// engine the embedded store keeps in memory, without the disk), then `POST /api/v2/alarm-export` of five columns,
// followed until done. Prints the export's time and rows/s, and the memory it took: the peak RSS and heap during the
// export over the baseline after the alarms were stored (what must stay bounded whatever the count), and the file.
//
//   pnpm build && node bench/run.mjs export    (BENCH_ALARMS: alarms, default 1000000)
import { statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alarmCollection, alarmsFeature, type Alarm } from '../packages/alarms/dist/index.js';
import { authFeature } from '../packages/auth/dist/index.js';
import { contextGraphFeature } from '../packages/context-graph/dist/index.js';
import { memoryStoreFactory } from '../packages/documents/dist/index.js';
import { eventsFeature } from '../packages/events/dist/index.js';
import { exportsFeature } from '../packages/exports/dist/index.js';
import { koaHttpServer } from '../packages/kernel-http/dist/index.js';
import { agendaSchedulerFactory } from '../packages/scheduler-agenda/dist/index.js';
import { Kernel, createLogger, kernelRefs } from '../packages/kernel/dist/index.js';

const count = Number(process.env.BENCH_ALARMS ?? 1_000_000);
const installDir = mkdtempSync(join(tmpdir(), 'vigie-bench-export-'));
const password = 'bench-password';
const kernel = new Kernel({
  scheduler: agendaSchedulerFactory(),
  http: koaHttpServer(),
  features: [authFeature, eventsFeature, contextGraphFeature, alarmsFeature, exportsFeature],
  installDir,
  env: { VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: password },
  configOverrides: { 'webserver.conf': { server: { host: '127.0.0.1', port: 0, jobs_poll_ms: 200 } } },
  store: memoryStoreFactory(),
  logger: createLogger({ level: 'warn' }),
});
const headers = { authorization: `Basic ${Buffer.from(`root:${password}`).toString('base64')}`, 'content-type': 'application/json' };
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const out = (line: string) => process.stdout.write(`${line}\n`);
const gc = (globalThis as { gc?: () => void }).gc;

/** An open alarm as the lifecycle stores one (steps left short). */
function alarm(i: number): Record<string, unknown> {
  const t = 1_735_732_800 + i;
  const state = 1 + (i % 3);
  return {
    _id: `alarm-${String(i).padStart(8, '0')}`,
    t,
    d: `check-${i}/host-${i % 1000}`,
    revision: 1,
    v: {
      state: { _t: 'stateinc', t, a: 'bench.poller', m: `ERR-${i} disk usage`, val: state },
      status: { _t: 'statusinc', t, a: 'bench.poller', m: `ERR-${i} disk usage`, val: 1 },
      steps: [],
      connector: 'bench',
      connector_name: 'poller',
      component: `host-${i % 1000}`,
      resource: `check-${i}`,
      display_name: `AB-CD-${String(i % 100).padStart(2, '0')}`,
      output: i % 50 === 0 ? `=HYPERLINK("x", "disk ${i}")` : `ERR-${i} disk usage, "quoted", with a comma`,
      long_output: '',
      creation_date: t,
      last_update_date: t,
      infos: {},
      tags: [],
    },
  };
}

try {
  const { url } = await kernel.start();
  const alarms = kernel.scope('alarms').resolve(kernelRefs.store).collection(alarmCollection);
  const storing = performance.now();
  for (let from = 0; from < count; from += 10_000) {
    await alarms.insertMany(Array.from({ length: Math.min(10_000, count - from) }, (_, k) => alarm(from + k) as unknown as Alarm));
  }
  out(`\nAlarm export: ${count.toLocaleString('en')} open alarms stored in ${((performance.now() - storing) / 1000).toFixed(1)} s (memory store)`);
  gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 20);
  const started = performance.now();
  const body = { columns: ['_id', 'd', { name: 'v.state.val', label: 'state' }, { name: 'v.output', label: 'output' }, 'v.display_name'] };
  const created = (await (await fetch(`${url}/api/v2/alarm-export`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { _id: string };
  let status: { status: string; rows_done: number; total: number | null };
  let longestPollMs = 0;
  for (;;) {
    const asked = performance.now();
    let res: Response;
    try {
      res = await fetch(`${url}/api/v2/alarm-export/${created._id}`, { headers });
    } catch (err) {
      // A kept-alive connection the server closed while the job held the event loop (reading 1,000,000 ids is one
      // synchronous step in the memory store): ask again.
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw err;
      continue;
    }
    status = (await res.json()) as typeof status;
    longestPollMs = Math.max(longestPollMs, performance.now() - asked);
    if (status.status === 'done' || status.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const file = statSync(join(installDir, 'var', 'lib', 'exports', `${created._id}.csv`));
  out(`  ${status.status}: ${status.rows_done.toLocaleString('en')} of ${status.total?.toLocaleString('en')} rows in ${seconds.toFixed(1)} s (${Math.round(status.rows_done / seconds).toLocaleString('en')} rows/s), file ${mib(file.size)}`);
  out(`  longest status answer during the export: ${longestPollMs.toFixed(0)} ms (the job's synchronous steps)`);
  out(`  memory: baseline RSS ${mib(base.rss)} (heap ${mib(base.heapUsed)}, the alarms included); during the export RSS +${mib(peakRss - base.rss)}, heap +${mib(peakHeap - base.heapUsed)}${gc ? '' : ' (run with --expose-gc for a cleaner baseline)'}`);
} finally {
  await kernel.stop();
  rmSync(installDir, { recursive: true, force: true });
}
process.exit(0);
