// Weather and pbehavior benchmark on the embedded (SQLite) store: 10,000 watchers of 10 dependencies each and
// 10,000 pbehaviors, half of them recurring. Prints the time of a weather page of 100 watchers and of computing the
// currently active pbehaviors against their goals (50 ms and 100 ms).
//
//   TSX_TSCONFIG_PATH=tsconfig.base.json node --conditions=vigie-source --import tsx bench/weather-pbehaviors.ts
//
// The packages are imported by path: the bench package's manifest does not list them (yet).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { alarmsFeature } from '../packages/alarms/src/index.js';
import { contextGraphFeature, entitiesChangedEvent } from '../packages/context-graph/src/index.js';
import { eventsFeature } from '../packages/events/src/index.js';
import { ManualClock } from '../packages/kernel/src/index.js';
import { activePbehaviorsRef, pbehaviorsFeature, Schedule, type PbehaviorRecord } from '../packages/pbehaviors/src/index.js';
import { startFeatureTest } from '../packages/testkit/src/index.js';
import { weatherFeature } from '../packages/weather/src/index.js';

/** The weather reads alarms through the alarms feature, which needs the pipeline and the context graph. */
const benchFeatures = [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, weatherFeature];

const watcherCount = Number(process.env.BENCH_WATCHERS ?? 10_000);
const dependenciesPerWatcher = 10;
const pbehaviorCount = Number(process.env.BENCH_PBEHAVIORS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 20);
const pageRuns = Number(process.env.BENCH_PAGE_RUNS ?? 5);
const pageSize = 100;
const goals = { weatherPage: 50, activePbehaviors: 100 };

// A fixed instant (a Wednesday, summer time in Paris) so that every run computes the same thing.
const clock = new ManualClock(Date.UTC(2024, 5, 12, 10));
const now = clock.nowSec();
const day = 86400;

/** A small deterministic generator: the same data on every run. */
let randomState = 42;
function random(): number {
  randomState = (randomState * 48271) % 2147483647;
  return randomState / 2147483647;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const sites = Array.from({ length: 50 }, (_, i) => `site-${i}`);
const types = ['Maintenance', 'Pause', 'Hors plage horaire de surveillance', 'generic'];
const rules = ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'FREQ=DAILY', 'FREQ=WEEKLY;BYDAY=SA,SU', 'FREQ=MONTHLY;BYMONTHDAY=1,15', 'FREQ=DAILY;INTERVAL=2;BYHOUR=2,14'];
const dependencyId = (w: number, d: number) => `res-${d}/host-${w}`;

function entities(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let w = 0; w < watcherCount; w++) {
    const depends = Array.from({ length: dependenciesPerWatcher }, (_, d) => dependencyId(w, d));
    const site = pick(sites);
    // Watchers as imports make them: linked dependencies, no selection criteria (`entities: [{}]` would select every entity).
    out.push({ _id: `watcher-${w}`, name: `Service ${String(w).padStart(5, '0')}`, type: 'watcher', enabled: true, infos: { site: { description: 'site', value: site } }, depends, impact: [] });
    for (const [d, id] of depends.entries()) {
      out.push({ _id: id, name: `res-${d}`, type: 'resource', enabled: random() > 0.02, infos: { site: { description: 'site', value: site } }, depends: [], impact: [`watcher-${w}`] });
    }
  }
  return out;
}

function alarms(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const step = (type: string, val: number) => ({ _t: type, t: now - 3600, a: 'bench.bench', m: 'output', val });
  const alarm = (entity: string, open: boolean) => {
    const state = 1 + Math.floor(random() * 3);
    out.push({
      _id: `alarm-${out.length}`,
      t: now - 7200,
      d: entity,
      v: {
        state: step('stateinc', state),
        status: step('statusinc', 1),
        ...(random() < 0.3 ? { ack: step('ack', 1) } : {}),
        connector: 'bench',
        connector_name: 'bench',
        component: entity.split('/')[1] ?? entity,
        resource: entity.split('/')[0],
        creation_date: now - 7200,
        last_update_date: now - 3600,
        display_name: 'AB-CD-EF',
        steps: Array.from({ length: 5 }, () => step('stateinc', state)),
        ...(open ? {} : { resolved: now - 600 }),
      },
    });
  };
  for (let w = 0; w < watcherCount; w++) {
    if (random() < 0.5) alarm(`watcher-${w}`, true);
    for (let d = 0; d < dependenciesPerWatcher; d++) {
      if (random() < 0.3) alarm(dependencyId(w, d), true);
      if (random() < 0.2) alarm(dependencyId(w, d), false);
    }
  }
  return out;
}

function pbehaviors(): PbehaviorRecord[] {
  return Array.from({ length: pbehaviorCount }, (_, i) => {
    const w = Math.floor(random() * watcherCount);
    const eids = random() < 0.2 ? [`watcher-${w}`] : Array.from({ length: 1 + Math.floor(random() * 3) }, () => dependencyId(w, Math.floor(random() * dependenciesPerWatcher)));
    const recurring = i % 2 === 0;
    // Recurring ones started up to two years ago; one-off ones are around now, some active.
    const tstart = recurring ? now - Math.floor(random() * 730 * day) : now + Math.floor((random() - 0.7) * 10 * day);
    const length = recurring ? 3600 * (1 + Math.floor(random() * 8)) : 3600 * (1 + Math.floor(random() * 72));
    return {
      _id: `pbh-${i}`,
      name: `window ${i}`,
      author: 'bench',
      filter: JSON.stringify({ _id: { $in: eids } }),
      tstart,
      tstop: tstart + length,
      rrule: recurring ? pick(rules) : null,
      enabled: true,
      comments: [],
      connector: 'canopsis',
      connector_name: 'canopsis',
      type_: pick(types),
      reason: '',
      timezone: pick(['Europe/Paris', 'UTC', 'America/New_York']),
      exdate: recurring && random() < 0.2 ? [tstart + 7 * day] : [],
      eids: [...new Set(eids)],
    };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function time<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

function report(label: string, measured: number, goal?: number): void {
  const verdict = goal === undefined ? '' : measured <= goal ? `  goal ${goal} ms: met (${(measured / goal).toFixed(2)}× the goal)` : `  goal ${goal} ms: MISSED (${(measured / goal).toFixed(2)}× the goal)`;
  process.stdout.write(`  ${label.padEnd(58)} ${ms(measured).padStart(10)}${verdict}\n`);
}

async function seed(installDir: string): Promise<void> {
  const t = await startFeatureTest({ features: benchFeatures, clock, installDir });
  try {
    const store = t.kernel.store;
    const seeded = await time(async () => {
      const all = entities();
      for (let i = 0; i < all.length; i += 10_000) await store.collection('default_entities').insertMany(all.slice(i, i + 10_000) as never);
      const alarmDocs = alarms();
      for (let i = 0; i < alarmDocs.length; i += 10_000) await store.collection('periodical_alarm').insertMany(alarmDocs.slice(i, i + 10_000) as never);
      await store.collection('default_pbehavior').insertMany(pbehaviors());
      return { entities: all.length, alarms: alarmDocs.length };
    });
    process.stdout.write(
      `weather + pbehaviors on the embedded store: ${watcherCount} watchers × ${dependenciesPerWatcher} dependencies (${seeded.result.entities} entities), ` +
        `${seeded.result.alarms} alarms, ${pbehaviorCount} pbehaviors (half recurring); seeded in ${ms(seeded.ms)}\n`,
    );
  } finally {
    await t.stop();
  }
}

async function main(): Promise<void> {
  const installDir = mkdtempSync(join(tmpdir(), 'vigie-bench-weather-'));
  try {
    await seed(installDir);
    // Started again on the seeded store, as a server would be: the pbehavior index warms up in the background.
    const started = await time(() => startFeatureTest({ features: benchFeatures, clock, installDir }));
    process.stdout.write(`restarted on the seeded store in ${ms(started.ms)}\n\n`);
    await measure(started.result);
  } finally {
    rmSync(installDir, { recursive: true, force: true });
  }
}

async function measure(t: Awaited<ReturnType<typeof startFeatureTest>>): Promise<void> {
  try {
    const activePbehaviors = t.kernel.scope('pbehaviors').resolve(activePbehaviorsRef);
    process.stdout.write('currently active pbehaviors\n');
    const afterStart = await time(async () => (await activePbehaviors.at()).all().length);
    report(`first call after start (waits for the warm-up): ${afterStart.result} active`, afterStart.ms);
    const records = await time(() => t.kernel.store.collection<PbehaviorRecord>('default_pbehavior').find({}));
    report(`cold: reading the ${records.result.length} pbehaviors from the store`, records.ms);
    const cold = await time(async () => records.result.filter((record) => new Schedule(record).isActiveAt(now)).length);
    report(`cold: compiling and evaluating every schedule (${cold.result} active)`, cold.ms, goals.activePbehaviors);
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) warm.push((await time(async () => (await activePbehaviors.at()).all().length)).ms);
    report('activePbehaviors.at().all(), same instant (median)', median(warm), goals.activePbehaviors);
    const moving: number[] = [];
    for (let i = 1; i <= runs; i++) {
      clock.advance(60_000);
      moving.push((await time(async () => (await activePbehaviors.at()).all().length)).ms);
    }
    report('activePbehaviors.at().all(), one minute later each time (median)', median(moving), goals.activePbehaviors);
    const listed: number[] = [];
    let listedCount = 0;
    for (let i = 0; i < pageRuns; i++) {
      const route = await time(() => t.get('/api/v2/pbehavior?current_active_pbh=true'));
      listed.push(route.ms);
      listedCount = (route.result.body as unknown[]).length;
    }
    report(`GET /api/v2/pbehavior?current_active_pbh=true, ${listedCount} listed (median)`, median(listed));

    const changedIds = Array.from({ length: 10_000 }, (_, i) => dependencyId(i % watcherCount, Math.floor(i / watcherCount) % dependenciesPerWatcher));
    const changed = await time(() => t.kernel.eventBus.emit(entitiesChangedEvent, { ids: changedIds }));
    report(`context-graph.entities-changed for ${changedIds.length} entities (an import): eids brought up to date`, changed.ms);

    process.stdout.write(`\nweather page of ${pageSize} watchers (GET /api/v2/weather/watchers/<filter>, over HTTP)\n`);
    const page = (query: string) => t.get(`/api/v2/weather/watchers/${encodeURIComponent('{}')}?limit=${pageSize}&${query}`);
    const first = await time(() => page('start=0'));
    if (first.result.status !== 200 || (first.result.body as unknown[]).length !== pageSize) throw new Error(`weather answered ${first.result.status}: ${first.result.text.slice(0, 200)}`);
    report('first page', first.ms);
    const pages: number[] = [];
    for (let i = 0; i < pageRuns; i++) pages.push((await time(() => page(`start=${Math.floor(random() * (watcherCount - pageSize))}`))).ms);
    report('random pages, sorted by _id (median)', median(pages), goals.weatherPage);
    const byName: number[] = [];
    for (let i = 0; i < pageRuns; i++) byName.push((await time(() => page(`start=${Math.floor(random() * (watcherCount - pageSize))}&orderby=name&direction=DESC`))).ms);
    report('random pages, orderby=name DESC (median)', median(byName), goals.weatherPage);
    const filtered: number[] = [];
    for (let i = 0; i < pageRuns; i++) {
      const filter = encodeURIComponent(JSON.stringify({ 'infos.site.value': pick(sites), active_pb_some: true }));
      filtered.push((await time(() => t.get(`/api/v2/weather/watchers/${filter}?limit=${pageSize}`))).ms);
    }
    report('filter on infos.site.value + active_pb_some (median)', median(filtered), goals.weatherPage);
    const deps: number[] = [];
    for (let i = 0; i < pageRuns; i++) deps.push((await time(() => t.get(`/api/v2/weather/watchers/watcher-${Math.floor(random() * watcherCount)}`))).ms);
    report('dependencies of one watcher (median)', median(deps));

    // Where a page's time goes: the store reads it needs, measured alone.
    process.stdout.write('\nthe store reads of one page, alone (embedded store)\n');
    const entitiesCollection = t.kernel.store.collection('default_entities');
    const alarmsCollection = t.kernel.store.collection('periodical_alarm');
    const watchers = await time(() => entitiesCollection.find({ type: 'watcher' }, { sort: { _id: 1 }, skip: Math.floor(watcherCount / 2), limit: pageSize, projection: { _id: 1, depends: 1 } }));
    report(`watchers {type: "watcher"}, sorted, one page (${watchers.result.length})`, watchers.ms);
    const ids = watchers.result.flatMap((w) => [w._id, ...(w.depends as string[])]);
    const openCount = await time(() => alarmsCollection.count({ 'v.resolved': null }));
    report(`counting the open alarms (${openCount.result}), the cheapest full scan`, openCount.ms);
    const openAll = await time(() => alarmsCollection.find({ 'v.resolved': null }, { projection: { d: 1 } }));
    report(`reading d of every open alarm (${openAll.result.length})`, openAll.ms);
    const few = ids.slice(0, 100);
    const inFew = await time(() => alarmsCollection.find({ 'v.resolved': null, d: { $in: few } }, { projection: { d: 1 } }));
    report(`open alarms with d $in ${few.length} ids (${inFew.result.length})`, inFew.ms);
    const inPage = await time(() => alarmsCollection.find({ 'v.resolved': null, d: { $in: ids } }, { projection: { d: 1 } }));
    report(`open alarms with d $in the page's ${ids.length} ids (${inPage.result.length})`, inPage.ms);
    const wanted = new Set(ids);
    const alarmIds = openAll.result.filter((alarm) => wanted.has(alarm.d as string)).map((alarm) => alarm._id);
    const byId = await time(async () => {
      let found = 0;
      for (let i = 0; i < alarmIds.length; i += 64) found += (await alarmsCollection.find({ _id: { $in: alarmIds.slice(i, i + 64) } })).length;
      return found;
    });
    report(`the same ${byId.result} alarms fetched by _id (the cost with an index on d)`, byId.ms);
  } finally {
    await t.stop();
  }
}

await main();
