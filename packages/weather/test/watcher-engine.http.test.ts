// The watcher engine end to end: watchers and entities through the context-graph import, events through
// /api/v2/event, the watcher's alarm through /alerts/get-alarms and the weather routes. Beats run by the test; an injected
// clock makes the baggot time pass.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importFeature } from '@vigie/import';
import { eventually } from '@vigie/testkit';
import { check, engineTests, type ListedAlarm } from '@vigie/testkit/engines';
import { weatherFeature, type DependencyEntry, type WatcherEntry } from '../src/index.js';

const dirs: string[] = [];
// Registered first, so it runs after the engines stop (after-hooks run in reverse order).
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
const engines = engineTests([importFeature, weatherFeature], { start: Date.UTC(2025, 0, 1, 12) });

/** Imports `{cis, links}` through the context-graph import and waits for it to be done. */
async function importGraph(document: { cis?: unknown[]; links?: unknown[] }): Promise<void> {
  const res = await engines.h.t.request('PUT', '/api/contextgraph/import', { body: JSON.stringify({ json: document }), headers: { 'content-type': 'application/json' } });
  expect(res.status, res.text).toBe(200);
  const id = (res.body as { data: { import_id: string }[] }).data[0]!.import_id;
  const status = await eventually(async () => (await engines.h.t.get(`/api/contextgraph/import/status/${id}`)).body as { status: string; info?: string }, (answer) => answer.status === 'done' || answer.status === 'failed', 'the import');
  if (status.status !== 'done') throw new Error(`import ${status.status}: ${status.info ?? ''}`);
}

const resource = (id: string, name: string, infos: Record<string, string> = {}) => ({
  _id: id,
  name,
  type: 'resource',
  action: 'set',
  infos: Object.fromEntries(Object.entries(infos).map(([key, value]) => [key, { description: key, value }])),
});
const watcher = (id: string, fields: Record<string, unknown>) => ({ _id: id, name: id, type: 'watcher', action: 'create', ...fields });
const counts = '{{.Alarms}} alarms: {{.State.Critical}} critical, {{.State.Major}} major, {{.State.Minor}} minor, {{.State.Info}} info; {{.Acknowledged}} acked, {{.NotAcknowledged}} not acked';

async function dependencies(watcherId: string): Promise<string[]> {
  const res = await engines.h.t.get(`/api/v2/weather/watchers/${watcherId}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as DependencyEntry[]).map((entry) => entry.entity_id);
}

async function tile(watcherId: string): Promise<WatcherEntry | undefined> {
  const res = await engines.h.t.get(`/api/v2/weather/watchers/${encodeURIComponent(JSON.stringify({ _id: watcherId }))}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as WatcherEntry[])[0];
}

function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, what: string): Promise<T> {
  return eventually(
    async () => {
      await engines.h.beat();
      return probe();
    },
    accept,
    what,
  );
}

const alarmOf = (alarms: ListedAlarm[], entityId: string) => alarms.find((alarm) => alarm.d === entityId);
/** Waits until the watcher's open alarm has `state` (0 included) and, when given, `output`. */
const watcherAlarm = (watcherId: string, state: number, output?: string) =>
  engines.h.eventually((alarms) => {
    const alarm = alarmOf(alarms, watcherId);
    return alarm !== undefined && alarm.v.state.val === state && (output === undefined || alarm.v.output === output);
  }).then((alarms) => alarmOf(alarms, watcherId)!);

describe('watcher engine', () => {
  it('depends on what the import linked and what the mfilter selects, and follows their worst alarm with its output_template', async () => {
    await engines.start();
    await importGraph({
      cis: [
        resource('disk/host1', 'disk', { team: 'web' }),
        resource('cpu/host1', 'cpu', { team: 'web' }),
        resource('db/host2', 'db', { team: 'data' }),
        watcher('shop', { mfilter: '{"infos.team.value": "web"}', output_template: counts, state: { method: 'worst' } }),
      ],
      links: [{ from: ['db/host2'], to: 'shop', action: 'create' }],
    });
    expect(await dependencies('shop')).toEqual(['cpu/host1', 'db/host2', 'disk/host1']);
    // Stored with the reciprocal impact.
    await until(async () => ((await engines.h.t.get('/api/v2/entities?limit=100')).body as { data: { _id: string; impact: string[]; depends: string[] }[] }).data, (entities) => {
      const byId = new Map(entities.map((entity) => [entity._id, entity]));
      return ['disk/host1', 'cpu/host1', 'db/host2'].every((id) => byId.get(id)?.impact.includes('shop') && byId.get('shop')?.depends.includes(id));
    }, 'the selection is stored');
    expect(alarmOf(await engines.h.alarms(), 'shop')).toBeUndefined();

    await engines.h.send(check({ component: 'host1', resource: 'disk', state: 2 }));
    const major = await watcherAlarm('shop', 2);
    expect(major.v).toMatchObject({ connector: 'watcher', connector_name: 'watcher', component: 'shop', output: '1 alarms: 0 critical, 1 major, 0 minor, 2 info; 0 acked, 1 not acked' });
    expect(major.v.resource).toBeUndefined();
    expect(await tile('shop')).toMatchObject({ tileColor: 'major', isActionRequired: true, connector: 'watcher', state: { val: 2 } });

    // The import-linked dependency counts as much as the selected ones.
    await engines.h.send(check({ component: 'host2', resource: 'db', state: 3 }));
    await watcherAlarm('shop', 3, '2 alarms: 1 critical, 1 major, 0 minor, 1 info; 0 acked, 2 not acked');
    expect((await tile('shop'))?.tileColor).toBe('critical');

    await engines.h.send(check({ event_type: 'ack', component: 'host2', resource: 'db', output: 'on it', author: 'alice' }));
    await watcherAlarm('shop', 3, '2 alarms: 1 critical, 1 major, 0 minor, 1 info; 1 acked, 1 not acked');

    await engines.h.send(check({ component: 'host2', resource: 'db', state: 0 }));
    await watcherAlarm('shop', 2, '2 alarms: 0 critical, 1 major, 0 minor, 2 info; 1 acked, 1 not acked');
    await engines.h.send(check({ component: 'host1', resource: 'disk', state: 0 }));
    const ok = await watcherAlarm('shop', 0);
    expect(ok.v.steps.map((step: { _t: string; val: number }) => `${step._t}:${step.val}`)).toEqual(['stateinc:2', 'statusinc:1', 'stateinc:3', 'statedec:2', 'statedec:0', 'statusdec:0']);
    expect((await tile('shop'))?.tileColor).toBe('ok');

    // OK for the baggot time: resolved by the alarms' beat, as any alarm.
    engines.clock.advance(61_000);
    await engines.h.eventually((alarms) => alarmOf(alarms, 'shop') === undefined);
    expect(alarmOf(await engines.h.alarms({ opened: false, resolved: true }), 'shop')?.v.resolved).toBeTypeOf('number');
  });

  it('takes in new entities the mfilter selects, lets go of those that stop matching, and reads entities patterns too', async () => {
    await engines.start();
    await importGraph({
      cis: [
        watcher('front-service', { mfilter: '{"component": "front", "infos.tier.value": {"$ne": "retired"}}', output_template: '{{.Alarms}} on the front' }),
        watcher('critical-only', { entities: [{ infos: { level: { value: 'gold' } } }] }),
      ],
    });
    expect(await dependencies('front-service')).toEqual([]);

    // An entity the events create is a dependency as soon as it exists.
    await engines.h.send(check({ component: 'front', resource: 'http', state: 1 }), check({ component: 'back', resource: 'http', state: 3 }));
    await watcherAlarm('front-service', 1, '1 on the front');
    expect(await dependencies('front-service')).toEqual(['http/front']);

    // Changed so that it no longer matches: no longer a dependency, and the watcher is OK again.
    await importGraph({ cis: [resource('http/front', 'http', { tier: 'retired' })] });
    await watcherAlarm('front-service', 0, '0 on the front');
    expect(await dependencies('front-service')).toEqual([]);
    const entity = ((await engines.h.t.get('/api/v2/entities?limit=100')).body as { data: { _id: string; impact: string[] }[] }).data.find((e) => e._id === 'http/front');
    expect(entity?.impact).not.toContain('front-service');

    // Entities patterns: an import giving the back resource the gold level makes it a dependency.
    await importGraph({ cis: [resource('http/back', 'http', { level: 'gold' })] });
    await watcherAlarm('critical-only', 3);
    expect(await dependencies('critical-only')).toEqual(['http/back']);

    // Deleted: gone from the dependencies, and the watcher is OK again.
    await importGraph({ cis: [{ _id: 'http/back', action: 'delete' }] });
    await watcherAlarm('critical-only', 0);
    expect(await dependencies('critical-only')).toEqual([]);
  });

  it('a watcher whose mfilter selects nothing and that has no links has no dependency, no alarm, and logs nothing alarming', async () => {
    await engines.start();
    await importGraph({ cis: [watcher('empty', { mfilter: '{"name": "no entity has this name"}', output_template: '{{.Alarms}}' })] });
    await engines.h.send(check({ state: 3 }));
    // Two beats go by.
    await engines.h.beat();
    await engines.h.beat();
    expect(await dependencies('empty')).toEqual([]);
    expect(alarmOf(await engines.h.alarms(), 'empty')).toBeUndefined();
    expect(await tile('empty')).toMatchObject({ state: { val: 0 }, tileColor: 'ok', isActionRequired: false });
    const alarming = engines.h.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 40 && line.includes('watcher'));
    expect(alarming).toEqual([]);
  });

  it('a watcher whose mfilter cannot be read selects nothing and says why, its import links still count', async () => {
    await engines.start();
    await importGraph({
      cis: [
        resource('disk/host1', 'disk'),
        watcher('broken', { mfilter: '{"name": {"$where": "1"}}' }),
        watcher('averaged', { mfilter: '{"name": "disk"}', state: { method: 'average' } }),
      ],
      links: [{ from: ['disk/host1'], to: 'broken', action: 'create' }],
    });
    const line = await engines.h.logged('watcher broken selects no entity by rule');
    expect(line).toContain('its mfilter cannot be read');
    await engines.h.send(check({ component: 'host1', resource: 'disk', state: 1 }), check({ component: 'host1', resource: 'cpu', state: 3 }));
    await watcherAlarm('broken', 1);
    // An unknown state method: the dependency is there, the alarm is left as it is.
    expect(await dependencies('averaged')).toEqual(['disk/host1']);
    expect(await engines.h.logged('watcher averaged has the unknown state method')).toContain('average');
    expect(alarmOf(await engines.h.alarms(), 'averaged')).toBeUndefined();
  });

  it('counts a paused dependency as Info from the next beat, and a watcher of watchers follows them', async () => {
    await engines.start();
    await importGraph({
      cis: [resource('disk/host1', 'disk', { team: 'web' }), watcher('shop', { mfilter: '{"infos.team.value": "web"}' }), watcher('services', { output_template: '{{.State.Major}} major' })],
      links: [{ from: ['shop'], to: 'services', action: 'create' }],
    });
    await engines.h.send(check({ component: 'host1', resource: 'disk', state: 2 }));
    await watcherAlarm('shop', 2);
    await watcherAlarm('services', 2, '1 major');

    const now = Math.floor(engines.clock.nowMs() / 1000);
    const res = await engines.h.t.post('/api/v2/pbehavior', { name: 'maintenance', filter: { _id: 'disk/host1' }, type_: 'Maintenance', tstart: now - 60, tstop: now + 3600 });
    expect(res.status, res.text).toBe(200);
    await watcherAlarm('shop', 0);
    await watcherAlarm('services', 0, '0 major');
    expect(await tile('shop')).toMatchObject({ tileColor: 'pause', tileIcon: 'maintenance', state: { val: 0 } });
  });

  it('works the alarm out again at start: a change made while the engine was not running is caught up', async () => {
    const installDir = await mkdtemp(join(tmpdir(), 'vigie-watchers-'));
    dirs.push(installDir);
    await engines.start({}, { installDir });
    await importGraph({ cis: [resource('disk/host1', 'disk', { team: 'web' }), watcher('shop', { mfilter: '{"infos.team.value": "web"}' })] });
    await engines.h.send(check({ component: 'host1', resource: 'disk', state: 2 }));
    await watcherAlarm('shop', 2);
    await engines.h.t.stop();
    // Event ids are made from the clock: a clock standing still across restarts would make them again.
    engines.clock.advance(1000);

    // Without the weather feature, nothing follows the dependency's alarm.
    await engines.start({}, { installDir, features: [importFeature] });
    await engines.h.send(check({ component: 'host1', resource: 'disk', state: 3 }));
    await engines.h.beat();
    expect(alarmOf(await engines.h.alarms(), 'disk/host1')?.v.state.val).toBe(3);
    expect(alarmOf(await engines.h.alarms(), 'shop')?.v.state.val).toBe(2);
    await engines.h.t.stop();
    engines.clock.advance(1000);

    await engines.start({}, { installDir });
    await watcherAlarm('shop', 3);
  });
});
