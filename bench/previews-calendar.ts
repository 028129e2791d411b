// Rule previews and the maintenance calendar on the embedded (SQLite) store: an idle-rule preview over 100,000 open
// alarms (goal 1 s) beside a bare scan of the same alarms through the store (the floor), and a year of a weekly rule
// over 10,000 pbehaviors (goal 200 ms for the expansion and its first page), over HTTP too, with pbehaviors sharing
// timings (made together) and with every timing distinct, and the HTTP answers of a week and of one entity.
//
//   node bench/run.mjs previews
//
// The packages are imported by path: the bench package's manifest does not list them (yet).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { alarmsFeature } from '../packages/alarms/src/index.js';
import { contextGraphFeature } from '../packages/context-graph/src/index.js';
import { eventsFeature } from '../packages/events/src/index.js';
import { idleRulesFeature } from '../packages/idle-rules/src/index.js';
import { ManualClock } from '../packages/kernel/src/index.js';
import { PbehaviorCalendar, pbehaviorsFeature, type PbehaviorRecord } from '../packages/pbehaviors/src/index.js';
import { startFeatureTest, type TestKernel } from '../packages/testkit/src/index.js';

const alarmCount = Number(process.env.BENCH_ALARMS ?? 100_000);
const pbehaviorCount = Number(process.env.BENCH_PBEHAVIORS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const goals = { preview: 1000, calendar: 200 };

const clock = new ManualClock(Date.UTC(2025, 0, 15, 12));
const now = clock.nowSec();
const day = 86400;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * CPU time (user + system, ms) of this process during `work`: on a machine shared with other load it skews far less
 * than wall time (the HTTP answers run in this process too). The wall time is printed beside the figures.
 */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  const wallStarted = performance.now();
  await work();
  const used = process.cpuUsage(started);
  wall.push(performance.now() - wallStarted);
  return (used.user + used.system) / 1000;
}

const wall: number[] = [];

async function medianOf(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timed(work));
  return median(times);
}

function report(label: string, measured: number, goal?: number, floor?: number): void {
  const wallMedian = median(wall.splice(0));
  const ratio = floor === undefined ? '' : `  ${(measured / floor).toFixed(2)}× the floor`;
  const verdict = goal === undefined ? '' : measured <= goal ? `  goal ${goal} ms: met` : `  goal ${goal} ms: MISSED`;
  process.stdout.write(`  ${label.padEnd(62)} ${ms(measured).padStart(10)} CPU (${ms(wallMedian)} wall)${ratio}${verdict}\n`);
}

function alarm(i: number): Record<string, unknown> {
  const step = (type: string, val: number) => ({ _t: type, t: now - 3600, a: 'bench.bench', m: 'output', val });
  const state = 1 + (i % 3);
  return {
    _id: `alarm-${i}`,
    t: now - 7200 - (i % 600),
    d: `res-${i}/host-${i % 1000}`,
    v: {
      state: step('stateinc', state),
      status: step('statusinc', 1),
      connector: 'bench',
      connector_name: 'bench',
      component: `host-${i % 1000}`,
      resource: `res-${i}`,
      creation_date: now - 7200,
      last_update_date: now - (i % 7200),
      last_event_date: now - (i % 7200),
      display_name: 'AB-CD-EF',
      output: 'output',
      steps: Array.from({ length: 5 }, () => step('stateinc', state)),
      infos: {},
      extra: {},
      tags: [],
      parents: [],
      children: [],
    },
  };
}

/**
 * A weekly pbehavior starting on one of 168 (weekday, hour) pairs, as pbehaviors made together share their timing;
 * with `distinct`, each starts `i` seconds later, so that no two share one (the calendar expands each timing once).
 */
function pbehavior(i: number, distinct = false): PbehaviorRecord {
  const tstart = now - 30 * day + (i % 7) * day + (i % 24) * 3600 + (distinct ? i : 0);
  return {
    _id: `pbh-${i}`,
    name: `weekly ${i}`,
    author: 'bench',
    filter: JSON.stringify({ _id: `res-${i}/host-${i % 1000}` }),
    tstart,
    tstop: tstart + 2 * 3600,
    rrule: 'FREQ=WEEKLY',
    enabled: true,
    comments: [],
    connector: 'canopsis',
    connector_name: 'canopsis',
    type_: 'maintenance',
    reason: '',
    timezone: i % 2 === 0 ? 'Europe/Paris' : 'America/New_York',
    exdate: [],
    eids: [`res-${i}/host-${i % 1000}`],
  };
}

async function main(): Promise<void> {
  const installDir = mkdtempSync(join(tmpdir(), 'vigie-bench-previews-'));
  const features = [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, idleRulesFeature];
  const seeding = await startFeatureTest({ features, clock, installDir });
  for (let i = 0; i < alarmCount; i += 10_000) {
    await seeding.kernel.store.collection('periodical_alarm').insertMany(Array.from({ length: Math.min(10_000, alarmCount - i) }, (_, j) => alarm(i + j)) as never);
  }
  await seeding.kernel.store.collection('default_pbehavior').insertMany(Array.from({ length: pbehaviorCount }, (_, i) => pbehavior(i)) as never);
  await seeding.stop();
  // Started again on the seeded store, as a server would be (the pbehavior index loads what is stored).
  // Answers are not checked against their schemas here (the tests do): yup over 40,000 entries would be measured too.
  const t = await startFeatureTest({ features, clock, installDir, checkResponses: false });
  try {
    const store = t.kernel.store;
    process.stdout.write(`previews and calendar on the embedded store: ${alarmCount} open alarms, ${pbehaviorCount} weekly pbehaviors\n\n`);

    process.stdout.write('idle-rule preview (POST /api/v2/idle-rule/preview, alarm pattern on the state)\n');
    const floor = await medianOf(() => store.collection('periodical_alarm').find({ 'v.resolved': null }, { projection: { 'v.steps': 0 } }));
    report(`floor: the open alarms read through the store (${alarmCount})`, floor);
    const rule = { name: 'bench', type: 'last_update', duration: '1h', operation: { type: 'ack' }, alarm_patterns: [{ v: { state: { val: 3 } } }] };
    let answer: { count?: number; idle_now?: number } = {};
    const preview = await medianOf(async () => {
      const res = await t.post('/api/v2/idle-rule/preview', rule);
      if (res.status !== 200) throw new Error(`preview answered ${res.status}: ${JSON.stringify(res.body)}`);
      answer = res.body as typeof answer;
    });
    report(`preview over every open alarm (${answer.count} selected, ${answer.idle_now} idle now)`, preview, goals.preview, floor);

    process.stdout.write('\nmaintenance calendar: a year of every pbehavior\n');
    await yearOfCalendar(t);
  } finally {
    await t.stop();
    rmSync(installDir, { recursive: true, force: true });
  }
  await distinctTimings();
}

/** A year of every stored pbehavior: expanded in process (warmed once), then over HTTP. */
async function yearOfCalendar(t: TestKernel): Promise<void> {
  const calendar = t.kernel.scope('pbehaviors').resolve(PbehaviorCalendar);
  const year = { from: now, to: now + 365 * day, timezone: 'Europe/Paris' };
  await calendar.timespans(year);
  let count = 0;
  const expansion = await medianOf(async () => {
    count = (await calendar.timespans(year)).count;
  });
  report(`expansion (PbehaviorCalendar.timespans, first page): ${count} timespans`, expansion, goals.calendar);
  await calendarOverHttp(t, year);
}

/** The year over HTTP (count and first page of 1,000), a week of it, and one entity's year. */
async function calendarOverHttp(t: TestKernel, year: { from: number; to: number }): Promise<void> {
  let yearCount = 0;
  const yearAnswer = await medianOf(async () => {
    const res = await t.get(`/api/v2/pbehavior-timespans?from=${year.from}&to=${year.to}&timezone=Europe/Paris`);
    if (res.status !== 200) throw new Error(`timespans answered ${res.status}`);
    yearCount = (res.body as { count: number }).count;
  });
  report(`GET /api/v2/pbehavior-timespans, the year (${yearCount}, first page of 1,000)`, yearAnswer, goals.calendar);
  let weekCount = 0;
  const http = await medianOf(async () => {
    const res = await t.get(`/api/v2/pbehavior-timespans?from=${year.from}&to=${year.from + 7 * day}&timezone=Europe/Paris`);
    if (res.status !== 200) throw new Error(`timespans answered ${res.status}`);
    weekCount = (res.body as { count: number }).count;
  });
  report(`GET /api/v2/pbehavior-timespans, 7 days of every pbehavior (${weekCount})`, http);
  const oneEntity = await medianOf(() => t.get(`/api/v2/pbehavior-timespans?from=${year.from}&to=${year.to}&entity=res-1/host-1`));
  report('GET /api/v2/pbehavior-timespans for one entity', oneEntity);
}

/** The same calendar when no two pbehaviors share a timing: every schedule expanded. */
async function distinctTimings(): Promise<void> {
  const installDir = mkdtempSync(join(tmpdir(), 'vigie-bench-calendar-'));
  const t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature], clock, installDir, checkResponses: false });
  try {
    await t.kernel.store.collection('default_pbehavior').insertMany(Array.from({ length: pbehaviorCount }, (_, i) => pbehavior(i, true)) as never);
    process.stdout.write(`\nmaintenance calendar, ${pbehaviorCount} pbehaviors with ${pbehaviorCount} distinct timings\n`);
    await yearOfCalendar(t);
  } finally {
    await t.stop();
    rmSync(installDir, { recursive: true, force: true });
  }
}

await main();
