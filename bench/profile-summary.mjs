#!/usr/bin/env node
// Sums a V8 CPU profile (`.cpuprofile`, from `--cpu-prof` or BENCH_CPU_PROF of the events benchmark) per package:
//   node bench/profile-summary.mjs <file.cpuprofile> [events [cpu-seconds]] [--detail <package>]
// With `events`, figures are also per event; with the process's CPU seconds over the profiled window (the events
// benchmark prints them), the shares are turned into µs of CPU per event (the profile's own sample times are wall
// time, which a loaded machine inflates). `--detail <package>` lists the functions that cost most when charged to it.
// Two columns per package: `self`, the samples whose running function is in it; `charged`, the samples charged to
// the innermost feature package on the stack (store, document engine, kernel and library work done on behalf of a
// stage or subscriber count for that feature), so each pipeline stage and trigger subscriber shows what it costs.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const detailAt = args.indexOf('--detail');
const detail = detailAt >= 0 ? args.splice(detailAt, 2)[1] : undefined;
const [file, eventsArg, cpuArg] = args;
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile> [events [cpu-seconds]] [--detail <package>]\n');
  process.exit(2);
}
const events = eventsArg === undefined ? undefined : Number(eventsArg);
const cpuSeconds = cpuArg === undefined ? undefined : Number(cpuArg);
const profile = JSON.parse(readFileSync(file, 'utf8'));

/** Infrastructure: the code every feature runs through; its time is charged to the feature that called it. */
const infrastructure = new Set(['kernel', 'documents', 'store-sqlite', 'store-jobs', 'scheduler-agenda', 'patterns', 'templates', 'filter-safety', 'rule-schemas']);

/** The package a frame belongs to: `@vigie/<dir>` for the workspace, the npm name for libraries, else V8's category. */
function packageOf(callFrame) {
  const { url, functionName } = callFrame;
  if (!url) return functionName === '(garbage collector)' ? '(gc)' : functionName === '(idle)' ? '(idle)' : functionName === '(program)' ? '(program)' : '(native)';
  const workspace = /\/(?:packages|apps)\/([^/]+)\/(?:dist|src)\//.exec(url);
  if (workspace) return `@vigie/${workspace[1]}`;
  const library = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (library) return library[1];
  if (url.startsWith('node:')) return '(node)';
  return url.replace(/^.*\//, '');
}

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** Per node: its package, and the innermost feature package on its stack (itself included). */
const packageOfNode = new Map();
const chargedOfNode = new Map();
function charged(id) {
  if (chargedOfNode.has(id)) return chargedOfNode.get(id);
  const node = byId.get(id);
  const own = packageOf(node.callFrame);
  packageOfNode.set(id, own);
  let result;
  if (own.startsWith('@vigie/') && !infrastructure.has(own.slice(7))) result = own;
  else {
    const up = parent.get(id);
    result = up === undefined ? undefined : charged(up);
  }
  chargedOfNode.set(id, result);
  return result;
}

// Time per sample: the gap to the next sample (the profile's own convention).
const selfUs = new Map();
const chargedUs = new Map();
let totalUs = 0;
let idleUs = 0;
const detailUs = new Map();
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
for (let i = 0; i < profile.samples.length; i++) {
  const us = profile.timeDeltas[i + 1] ?? 0;
  const id = profile.samples[i];
  const target = charged(id) ?? packageOfNode.get(id);
  const own = packageOfNode.get(id);
  if (own === '(idle)') {
    idleUs += us;
    continue;
  }
  totalUs += us;
  add(selfUs, own, us);
  if (detail !== undefined && target === detail) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    add(detailUs, `${functionName || '(anonymous)'} ${own} ${url.replace(/^.*\//, '')}:${lineNumber + 1}`, us);
  }
  add(chargedUs, target.startsWith('@vigie/') || target.startsWith('(') ? target : `(outside any feature) ${target}`, us);
}

/** µs of CPU per event: the share of the busy samples times the CPU the process used, when given; else sampled time. */
const perEvent = (us) => (cpuSeconds !== undefined ? ((us / totalUs) * cpuSeconds * 1e6) / events : us / events);
const format = (us) => (events ? `${perEvent(us).toFixed(2).padStart(8)} µs/event` : '') + `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)} %`;
const table = (title, map) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1])) {
    if (us / totalUs < 0.0005) continue;
    process.stdout.write(`  ${name.padEnd(48)}${format(us)}\n`);
  }
};
process.stdout.write(
  `${file}: ${(totalUs / 1000).toFixed(0)} ms busy, ${(idleUs / 1000).toFixed(0)} ms idle (sampled)${events ? `, ${events.toLocaleString('en')} events: ${perEvent(totalUs).toFixed(1)} µs ${cpuSeconds !== undefined ? 'of CPU' : 'sampled'} per event` : ''}\n`,
);
table('charged to the innermost feature package on the stack (stages and subscribers), shares of 0.05 % and more:', chargedUs);
table('self time per package:', selfUs);
if (detail !== undefined) table(`functions charged to ${detail} (self time):`, detailUs);
