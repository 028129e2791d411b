// The correlation engine end to end: rules configured through /api/v2/metaalarmrule, events through /api/v2/event,
// meta-alarms read through /alerts/get-alarms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventFilterFeature } from '@vigie/eventfilter';
import { ManualClock, kernelRefs } from '@vigie/kernel';
import { metaAlarmsFeature } from '../src/index.js';
import { metaAlarmRuleCollection } from '../src/meta-alarm-rule-repository.js';
import { check, engineTests, type ListedAlarm } from '@vigie/testkit/engines';

const engines = engineTests([metaAlarmsFeature]);

async function rule(body: Record<string, unknown>): Promise<void> {
  const res = await engines.h.t.post('/api/v2/metaalarmrule', body);
  expect(res.status, res.text).toBe(200);
}

const metaAlarms = (alarms: ListedAlarm[]) => alarms.filter((a) => typeof a.v.meta === 'string');
const byEntity = (alarms: ListedAlarm[], entity: string) => alarms.find((a) => a.d === entity);
const resource = (name: string, overrides: Record<string, unknown> = {}) => check({ resource: name, output: `${name} down`, ...overrides });
/** Waits until one meta-alarm has exactly `children`, and returns every alarm. */
const withMetaChildren = (children: string[], query?: Record<string, string | number | boolean>) =>
  engines.h.eventually((found) => {
    const metas = metaAlarms(found);
    return metas.length === 1 && [...metas[0]!.v.children].sort().join() === [...children].sort().join() && children.every((child) => byEntity(found, child)?.v.parents.length === 1);
  }, query);

describe('meta-alarm rule types', () => {
  it('relation: a resource alarm joins the open alarm of its component, which becomes the meta-alarm', async () => {
    const h = await engines.start();
    await rule({ _id: 'by-host', name: 'by host', type: 'relation' });
    await h.send(check({ source_type: 'component', resource: undefined, output: 'host down' }));
    await h.send(resource('disk'), resource('cpu'));
    const alarms = await withMetaChildren(['disk/host', 'cpu/host']);
    const [meta] = metaAlarms(alarms);
    // The component alarm itself is the meta-alarm: it keeps its identity.
    expect(meta).toMatchObject({ d: 'host', v: { meta: 'by-host', connector: 'nagios', component: 'host' } });
    expect(meta!.v.resource).toBeUndefined();
    const disk = byEntity(alarms, 'disk/host')!;
    expect(disk.v.parents).toEqual(['host']);
    const attach = disk.v.steps.find((s: { _t: string }) => s._t === 'metaalarmattach');
    expect(attach).toMatchObject({ a: 'engine.correlation', m: `Rule: {by host}\n Displayname: {${meta!.v.display_name}}\n Entity: {host}` });
  });

  it('relation: a new component alarm takes the resource alarms already open on it', async () => {
    const h = await engines.start();
    await rule({ _id: 'by-host', name: 'by host', type: 'relation' });
    await h.send(resource('disk'), resource('cpu', { component: 'other' }));
    await h.send(check({ source_type: 'component', resource: undefined, output: 'host down' }));
    const alarms = await withMetaChildren(['disk/host']);
    expect(metaAlarms(alarms)[0]!.d).toBe('host');
    expect(byEntity(alarms, 'cpu/other')!.v.parents).toEqual([]);
  });

  it('attribute: every matching alarm joins the rule one meta-alarm, generated on its own entity', async () => {
    const h = await engines.start();
    await rule({ _id: 'nagios-disks', name: 'disks', type: 'attribute', config: { event_patterns: [{ connector: 'nagios' }], entity_patterns: [{ type: 'resource' }] } });
    await h.send(resource('disk'));
    await h.send(resource('disk2'), resource('cpu', { connector: 'zabbix' }));
    const alarms = await withMetaChildren(['disk/host', 'disk2/host']);
    const [meta] = metaAlarms(alarms);
    expect(meta!.v).toMatchObject({ meta: 'nagios-disks', connector: 'engine', connector_name: 'correlation', component: 'metaalarm' });
    expect(meta!.v.resource).toMatch(/^meta-alarm-entity-[0-9a-f-]{36}$/);
    expect(meta!.d).toBe(`${meta!.v.resource}/metaalarm`);
    expect(byEntity(alarms, 'disk/host')!.v.parents).toEqual([meta!.d]);
    expect(byEntity(alarms, 'cpu/host')!.v.parents).toEqual([]);
  });

  it('complex with threshold_count: the meta-alarm is created with the group once it holds enough alarms, later ones join it', async () => {
    const h = await engines.start();
    await rule({ _id: 'three', name: 'three', type: 'complex', config: { threshold_count: 3, time_interval: 600 } });
    await h.send(resource('r1'), resource('r2'));
    await h.beat();
    expect(metaAlarms(await h.alarms())).toEqual([]);
    await h.send(resource('r3'));
    await withMetaChildren(['r1/host', 'r2/host', 'r3/host']);
    await h.send(resource('r4'));
    const alarms = await withMetaChildren(['r1/host', 'r2/host', 'r3/host', 'r4/host']);
    expect(metaAlarms(alarms)[0]!.v.state).toMatchObject({ val: 2, a: 'engine.correlation' });
  });

  it('complex with threshold_rate: created when the matching share of the entities is reached', async () => {
    const h = await engines.start();
    // Four entities in the farm (OK checks create entities, no alarm).
    await h.send(...['f1', 'f2', 'f3', 'f4'].map((name) => resource(name, { component: 'farm', state: 0 })));
    await rule({ _id: 'half-farm', name: 'half', type: 'complex', config: { threshold_rate: 0.5, total_entity_patterns: [{ component: 'farm' }], entity_patterns: [{ component: 'farm' }] } });
    await h.send(resource('f1', { component: 'farm' }));
    await h.beat();
    expect(metaAlarms(await h.alarms())).toEqual([]);
    await h.send(resource('f2', { component: 'farm' }));
    await withMetaChildren(['f1/farm', 'f2/farm']);
  });

  it('timebased: two alarms within time_interval are grouped; an alarm after the window restarts the group', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const h = await engines.start({}, { clock });
    await rule({ _id: 'burst', name: 'burst', type: 'timebased', config: { time_interval: 60 } });
    await h.send(resource('a'));
    clock.advance(120_000);
    // After the window: the group starts again from b, alone.
    await h.send(resource('b'));
    await h.beat();
    expect(metaAlarms(await h.alarms())).toEqual([]);
    clock.advance(30_000);
    await h.send(resource('c'));
    const alarms = await withMetaChildren(['b/host', 'c/host']);
    expect(byEntity(alarms, 'a/host')!.v.parents).toEqual([]);
  });
});

describe('group restart after time_interval', () => {
  it('leaves the first meta-alarm with its children and starts a new one from the late alarm', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const h = await engines.start({}, { clock });
    await rule({ _id: 'pairs', name: 'pairs', type: 'complex', config: { threshold_count: 2, time_interval: 60 } });
    await h.send(resource('a'), resource('b'));
    await withMetaChildren(['a/host', 'b/host']);
    clock.advance(120_000);
    await h.send(resource('c'));
    clock.advance(10_000);
    await h.send(resource('d'));
    const alarms = await h.eventually((found) => metaAlarms(found).length === 2 && metaAlarms(found).every((meta) => meta.v.children.length === 2));
    const groups = metaAlarms(alarms).map((meta) => [...meta.v.children].sort().join());
    expect(groups.sort()).toEqual(['a/host,b/host', 'c/host,d/host']);
    expect(new Set(metaAlarms(alarms).map((meta) => meta.d)).size).toBe(2);
    await h.logged('meta-alarm group restarted');
  });
});

describe('the generated meta-alarm', () => {
  it('takes the worst state of its children, and follows their state changes', async () => {
    const h = await engines.start();
    await rule({ _id: 'pair', name: 'pair', type: 'complex', config: { threshold_count: 2 } });
    await h.send(resource('r1', { state: 1 }), resource('r2', { state: 2 }));
    let alarms = await withMetaChildren(['r1/host', 'r2/host']);
    expect(metaAlarms(alarms)[0]!.v.state).toMatchObject({ val: 2 });
    await h.send(resource('r1', { state: 3 }));
    alarms = await h.eventually((found) => metaAlarms(found)[0]?.v.state.val === 3);
    expect(metaAlarms(alarms)[0]!.v.state).toMatchObject({ _t: 'stateinc', a: 'engine.correlation' });
    await h.send(resource('r1', { state: 1 }), resource('r2', { state: 1 }));
    alarms = await h.eventually((found) => metaAlarms(found)[0]?.v.state.val === 1);
    expect(metaAlarms(alarms)[0]!.v.state._t).toBe('statedec');
  });

  it('renders output_template over .Count, .Children (the last attached child) and .Rule', async () => {
    const h = await engines.start();
    await rule({
      _id: 'tpl',
      name: 'storage',
      type: 'attribute',
      config: { entity_patterns: [{ type: 'resource' }] },
      output_template: '{{.Count}} alarms, last {{.Children.Alarm.Value.Resource}} ({{.Children.Entity.Name}}) by {{.Rule.Name}}',
    });
    await h.send(resource('disk'));
    let alarms = await withMetaChildren(['disk/host']);
    expect(metaAlarms(alarms)[0]!.v.output).toBe('1 alarms, last disk (disk) by storage');
    await h.send(resource('cpu'));
    alarms = await withMetaChildren(['disk/host', 'cpu/host']);
    expect(metaAlarms(alarms)[0]!.v.output).toBe('2 alarms, last cpu (cpu) by storage');
  });

  it('auto_resolve: resolved once all its children are resolved; without it, left open', async () => {
    // Cancelled alarms are resolved after the delay and keep their state: the meta-alarms keep theirs too.
    const h = await engines.start({ alarms: { cancel_autosolve_delay: '1s' } });
    await rule({ _id: 'auto', name: 'auto', type: 'attribute', auto_resolve: true, config: { entity_patterns: [{ component: 'host' }] } });
    await rule({ _id: 'manual', name: 'manual', type: 'attribute', config: { entity_patterns: [{ component: 'other' }] } });
    await h.send(resource('r1'), resource('r2'), resource('o1', { component: 'other' }));
    await h.eventually((found) => metaAlarms(found).length === 2 && metaAlarms(found).every((meta) => meta.v.children.length === (meta.v.meta === 'auto' ? 2 : 1)));
    const cancel = (name: string, component = 'host') => resource(name, { component, event_type: 'cancel', author: 'alice', output: 'gone' });
    await h.send(cancel('r1'));
    // One child resolved: the meta-alarm stays open.
    await h.eventually((found) => byEntity(found, 'r1/host') === undefined);
    expect(metaAlarms(await h.alarms()).map((meta) => meta.v.meta).sort()).toEqual(['auto', 'manual']);
    await h.send(cancel('r2'), cancel('o1', 'other'));
    const open = await h.eventually((found) => byEntity(found, 'r2/host') === undefined && byEntity(found, 'o1/other') === undefined && metaAlarms(found).length === 1);
    expect(metaAlarms(open)[0]!.v.meta).toBe('manual');
    const resolved = await h.alarms({ opened: false, resolved: true });
    expect(metaAlarms(resolved).map((meta) => meta.v.meta)).toEqual(['auto']);
    await h.logged('meta-alarm resolved: all its children are resolved');
  });
});

describe('the meta-alarm events', () => {
  it('go through the event filter: an enrichment on metaalarm events shapes the meta-alarm', async () => {
    const h = await engines.start({}, { features: [eventFilterFeature, metaAlarmsFeature] });
    const filter = await h.t.post('/api/v2/eventfilter/rules', {
      type: 'enrichment',
      pattern: { event_type: 'metaalarm', connector: 'engine', connector_name: 'correlation' },
      actions: [{ type: 'set_field', name: 'Output', value: 'grouped by the correlation engine' }],
      on_success: 'pass',
      on_failure: 'pass',
    });
    expect(filter.status, filter.text).toBe(200);
    await rule({ _id: 'disks', name: 'disks', type: 'attribute', config: { entity_patterns: [{ type: 'resource' }] } });
    await h.send(resource('disk'));
    const alarms = await withMetaChildren(['disk/host']);
    expect(metaAlarms(alarms)[0]!.v.output).toBe('grouped by the correlation engine');
  });
});

describe('rules that cannot fire', () => {
  it('a complex rule with neither threshold does nothing and says why', async () => {
    const h = await engines.start();
    await rule({ _id: 'no-threshold', name: 'none', type: 'complex', config: { time_interval: 60 } });
    await h.send(resource('r1'), resource('r2'), resource('r3'));
    await h.logged('a complex rule needs config.threshold_count or config.threshold_rate');
    expect(metaAlarms(await h.alarms())).toEqual([]);
  });

  it('a complex rule stored with both thresholds (the API refuses it) does nothing and says why', async () => {
    const h = await engines.start();
    const store = h.t.kernel.scope('meta-alarms').resolve(kernelRefs.store);
    await store.collection(metaAlarmRuleCollection).insertOne({ _id: 'both', name: 'both', type: 'complex', patterns: null, config: { threshold_count: 1, threshold_rate: 0.1 } });
    await h.send(resource('r1'), resource('r2'));
    const line = await h.logged('config.threshold_count and config.threshold_rate are mutually exclusive');
    expect(JSON.parse(line)).toMatchObject({ rule: 'both' });
    expect(metaAlarms(await h.alarms())).toEqual([]);
  });
});

describe('correlation state across a restart', () => {
  it('keeps the open group of a rule: alarms counted before the restart count after it', async () => {
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-meta-alarms-restart-'));
    try {
      let h = await engines.start({}, { installDir });
      await rule({ _id: 'three', name: 'three', type: 'complex', config: { threshold_count: 3, time_interval: 3600 } });
      await h.send(resource('r1'), resource('r2'));
      await h.t.stop();
      h = await engines.start({}, { installDir });
      await h.send(resource('r3'));
      await withMetaChildren(['r1/host', 'r2/host', 'r3/host']);
    } finally {
      await engines.h.t.stop();
      rmSync(installDir, { recursive: true, force: true });
    }
  });
});
