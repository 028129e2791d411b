import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import { alarmsFeature } from '@vigie/alarms';
import { entitiesChangedEvent, contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { weatherFeature, type DependencyEntry, type WatcherEntry } from '../src/index.js';

const start = Date.UTC(2024, 0, 10, 12); // a Wednesday
const now = start / 1000;
const hour = 3600;

let clock: ManualClock;
let t: TestKernel;

const info = (value: string) => ({ description: 'where it runs', value });
const resource = (id: string, name: string, extra: Record<string, unknown> = {}) => ({ _id: id, name, type: 'resource', enabled: true, infos: { site: info('Lyon') }, depends: [], impact: [], ...extra });
const watcher = (id: string, name: string, depends: string[], extra: Record<string, unknown> = {}) => ({
  _id: id,
  name,
  type: 'watcher',
  enabled: true,
  infos: { site: info('Lyon') },
  depends,
  impact: [],
  ...extra,
});

const entities = [
  resource('disk/host1', 'disk'),
  resource('cpu/host1', 'cpu'),
  resource('mem/host2', 'mem', { infos: { site: info('Paris') } }),
  resource('swap/host2', 'swap', { enabled: false, infos: { site: info('Paris') } }),
  watcher('shop', 'Web shop', ['disk/host1', 'cpu/host1', 'gone/host9']),
  watcher('billing', 'Billing', ['mem/host2', 'swap/host2'], { infos: { site: info('Paris'), owner: info('finance') } }),
  watcher('team/intranet', 'Intranet', []),
  { _id: 'legacy', name: 'Legacy', type: 'watcher', enabled: true, infos: {}, depends: [], impact: [], mfilter: '{"infos.site.value": "Paris"}' },
];

const step = (type: string, val: number, at = now - hour) => ({ _t: type, t: at, a: 'nagios.edc', m: 'output', val });
const alarm = (id: string, entity: string, v: Record<string, unknown>) => ({
  _id: id,
  t: now - 2 * hour,
  d: entity,
  v: {
    connector: 'nagios',
    connector_name: 'edc',
    component: entity.split('/')[1] ?? entity,
    resource: entity.includes('/') ? entity.split('/')[0] : undefined,
    creation_date: now - 2 * hour,
    display_name: 'AB-CD-EF',
    last_update_date: now - hour,
    steps: [step('stateinc', 3)],
    long_output_history: ['x'],
    ...v,
  },
});

const alarms = [
  alarm('a-shop', 'shop', { state: step('stateinc', 2), status: step('statusinc', 1), component: 'shop', resource: undefined }),
  alarm('a-disk', 'disk/host1', { state: step('stateinc', 3), status: step('statusinc', 1), alarmfilter: { next_run: now + 600, runs: {} } }),
  alarm('a-cpu-old', 'cpu/host1', { state: step('stateinc', 1), status: step('statusinc', 1), resolved: now - 3 * hour }),
  alarm('a-mem', 'mem/host2', {
    state: step('stateinc', 1),
    status: step('statusinc', 1),
    ack: step('ack', 1),
    snooze: step('snooze', now + 900),
    ticket: { ...step('assocticket', 0), val: 'INC42', data: { url: 'https://tickets/42' } },
    alarmfilter: { next_run: now + 300 },
  }),
];

beforeEach(async () => {
  clock = new ManualClock(start);
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, weatherFeature], clock });
  await t.kernel.store.collection('default_entities').insertMany(entities.map((e) => JSON.parse(JSON.stringify(e))));
  await t.kernel.store.collection('periodical_alarm').insertMany(alarms.map((a) => JSON.parse(JSON.stringify(a))));
});
afterEach(() => t.stop());

const tiles = async (filter: unknown = {}, query = ''): Promise<WatcherEntry[]> => {
  const res = await t.get(`/api/v2/weather/watchers/${encodeURIComponent(JSON.stringify(filter))}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as WatcherEntry[];
};
const tile = async (id: string, filter: unknown = {}) => (await tiles(filter)).find((entry) => entry.entity_id === id) as WatcherEntry;
const dependencies = async (watcherId: string): Promise<DependencyEntry[]> => {
  const res = await t.get(`/api/v2/weather/watchers/${watcherId}`);
  expect(res.status, res.text).toBe(200);
  return res.body as DependencyEntry[];
};

async function pbehavior(filter: Record<string, unknown>, type_: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await t.post('/api/v2/pbehavior', { name: `${type_} window`, filter, type_, tstart: now - hour, tstop: now + hour, ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body as string;
}

describe('GET /api/v2/weather/watchers/<filter>', () => {
  it('answers one tile per watcher with every field of the spec', async () => {
    const all = await tiles();
    expect(all.map((entry) => entry.entity_id)).toEqual(['billing', 'legacy', 'shop', 'team/intranet']);
    expect(all.find((entry) => entry.entity_id === 'shop')).toEqual({
      entity_id: 'shop',
      display_name: 'Web shop',
      mfilter: '',
      infos: { site: { description: 'where it runs', value: 'Lyon' } },
      watcher_pbehavior: [],
      automatic_action_timer: now + 600,
      state: step('stateinc', 2),
      status: step('statusinc', 1),
      snooze: null,
      ack: null,
      connector: 'nagios',
      connector_name: 'edc',
      component: 'shop',
      resource: null,
      last_update_date: now - hour,
      isActionRequired: true,
      isAllEntitiesPaused: false,
      isWatcherPaused: false,
      tileColor: 'major',
      tileIcon: 'major',
      tileSecondaryIcon: null,
    });
  });

  it('leaves the alarm fields out of a watcher without an open alarm, with state 0', async () => {
    expect(await tile('team/intranet')).toEqual({
      entity_id: 'team/intranet',
      display_name: 'Intranet',
      mfilter: '',
      infos: { site: { description: 'where it runs', value: 'Lyon' } },
      watcher_pbehavior: [],
      automatic_action_timer: null,
      state: { val: 0 },
      isActionRequired: false,
      isAllEntitiesPaused: true,
      isWatcherPaused: false,
      tileColor: 'ok',
      tileIcon: 'ok',
      tileSecondaryIcon: null,
    });
    expect((await tile('legacy')).mfilter).toBe('{"infos.site.value": "Paris"}');
  });

  it('filters on name and infos values, and only ever answers watchers', async () => {
    expect((await tiles({ name: { $regex: '^web', $options: 'i' } })).map((e) => e.entity_id)).toEqual(['shop']);
    expect((await tiles({ 'infos.site.value': 'Paris' })).map((e) => e.entity_id)).toEqual(['billing']);
    expect((await tiles({ $or: [{ 'infos.owner.value': 'finance' }, { name: 'Intranet' }] })).map((e) => e.entity_id)).toEqual(['billing', 'team/intranet']);
    expect((await tiles({ type: 'resource' })).map((e) => e.entity_id)).toEqual(['billing', 'legacy', 'shop', 'team/intranet']);
  });

  it('pages with start and limit, and sorts by orderby and direction', async () => {
    expect((await tiles({}, '?start=1&limit=2')).map((e) => e.entity_id)).toEqual(['legacy', 'shop']);
    expect((await tiles({}, '?orderby=name&direction=ASC')).map((e) => e.display_name)).toEqual(['Billing', 'Intranet', 'Legacy', 'Web shop']);
    expect((await tiles({}, '?orderby=name&direction=DESC&limit=1')).map((e) => e.display_name)).toEqual(['Web shop']);
    expect((await tiles({}, '?orderby=infos.site.value&direction=DESC&limit=1')).map((e) => e.entity_id)).toEqual(['billing']);
  });

  it("reads start and limit as leniently as the original: a non-integer limit is 120, a non-integer start 0, direction without orderby is ignored", async () => {
    expect((await tiles({}, '?limit=many&start=first')).length).toBe(4);
    expect((await tiles({}, '?direction=sideways')).length).toBe(4);
  });

  it.each([
    ['?orderby=name&direction=UP', { name: 'Can not parse sort direction.', description: "Direction must be 'ASC' or 'DESC' not UP." }],
    ['?orderby=name', { name: 'Can not parse sort direction.', description: "Direction must be 'ASC' or 'DESC' not None." }],
    ['?orderby=name&direction=asc', { name: 'Can not parse sort direction.', description: "Direction must be 'ASC' or 'DESC' not asc." }],
    ['?orderby=%24where&direction=ASC', { name: '', description: 'orderby must be a field name, such as name or infos.site.value' }],
    ['?limit=0', { name: '', description: 'limit must be a positive integer' }],
    ['?start=-5', { name: '', description: 'start must not be negative' }],
    ['?limit=1&limit=2', { name: '', description: expect.stringContaining('limit') }],
  ])('refuses %s', async (query, body) => {
    const res = await t.get(`/api/v2/weather/watchers/{}${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });

  it.each([
    [{ $where: 'true' }, 'Invalid filter: operator $where is not allowed'],
    [{ $ne: null }, 'Invalid filter: unknown top level operator $ne: only $and, $or and $nor combine filters; compare fields as {"field": {"$ne": …}}'],
    [{ name: { $regex: '(a|b)*c' } }, 'Invalid filter: nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions'],
    [{ tileColor: 2 }, 'tileColor must be a tile value, a list of them or {"$in": [...]}'],
  ])('refuses the unsafe or unreadable filter %j', async (filter, description) => {
    const res = await t.get(`/api/v2/weather/watchers/${encodeURIComponent(JSON.stringify(filter))}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description });
  });

  it('refuses a filter that is not JSON, raw or encoded', async () => {
    for (const path of ['/api/v2/weather/watchers/{name: x}', `/api/v2/weather/watchers/${encodeURIComponent('{"name": }')}`]) {
      const res = await t.get(path);
      expect(res.status).toBe(400);
      expect((res.body as { description: string }).description).toMatch(/^Invalid filter: /);
    }
  });

  it('answers 404 without a filter', async () => {
    expect((await t.get('/api/v2/weather/watchers')).status).toBe(404);
  });

  it('requires authentication', async () => {
    expect((await t.get('/api/v2/weather/watchers/{}', { auth: false })).status).toBe(401);
  });
});

describe('large pages', () => {
  it('give the same tiles as pages of one watcher (open alarms are then read in one pass)', async () => {
    const extra = Array.from({ length: 12 }, (_, w) => watcher(`bulk-${w}`, `Bulk ${w}`, [0, 1, 2].map((d) => `r${d}/bulk-${w}`)));
    await t.kernel.store.collection('default_entities').insertMany(extra.flatMap((w) => [w, ...w.depends.map((id) => resource(id, id))]));
    await t.kernel.store.collection('periodical_alarm').insertMany(
      extra.flatMap((w, i) => [
        alarm(`bulk-a-${i}`, w._id, { state: step('stateinc', i % 4), status: step('statusinc', 1) }),
        alarm(`bulk-b-${i}`, `r${i % 3}/bulk-${i}`, { state: step('stateinc', 2), status: step('statusinc', 1), ...(i % 2 === 0 ? { ack: step('ack', 1) } : {}) }),
        alarm(`bulk-c-${i}`, `r2/bulk-${i}`, { state: step('stateinc', 1), status: step('statusinc', 1), resolved: now - 60 }),
      ]) as never,
    );
    const all = await tiles({ name: { $regex: '^Bulk' } });
    expect(all.length).toBe(12);
    const oneByOne: WatcherEntry[] = [];
    for (let start = 0; start < 12; start++) oneByOne.push(...(await tiles({ name: { $regex: '^Bulk' } }, `?start=${start}&limit=1`)));
    expect(all).toEqual(oneByOne);
    expect(all.map((entry) => [entry.tileColor, entry.isActionRequired])).toContainEqual(['critical', true]);
  });
});

describe('tiles with pbehaviors', () => {
  it('a pbehavior on the watcher pauses its tile and is listed, without eids', async () => {
    const id = await pbehavior({ _id: 'shop' }, 'Pause');
    const shop = await tile('shop');
    expect(shop).toMatchObject({ isWatcherPaused: true, isActionRequired: false, tileColor: 'pause', tileIcon: 'pause', tileSecondaryIcon: null });
    expect(shop.watcher_pbehavior).toEqual([
      {
        _id: id,
        name: 'Pause window',
        author: 'root',
        filter: '{"_id":"shop"}',
        tstart: now - hour,
        tstop: now + hour,
        rrule: null,
        enabled: true,
        comments: [],
        connector: 'canopsis',
        connector_name: 'canopsis',
        type_: 'Pause',
        reason: '',
        timezone: 'Europe/Paris',
        exdate: [],
        isActive: true,
        is_currently_active: true,
      },
    ]);
  });

  it('a paused dependency no longer requires action and shows as the secondary icon', async () => {
    await pbehavior({ _id: 'disk/host1' }, 'Maintenance');
    expect(await tile('shop')).toMatchObject({ isActionRequired: false, isAllEntitiesPaused: false, tileColor: 'major', tileIcon: 'major', tileSecondaryIcon: 'maintenance' });
  });

  it('when every dependency is paused, the tile is paused with their icon', async () => {
    await pbehavior({ _id: { $in: ['disk/host1', 'cpu/host1'] } }, 'Hors plage horaire de surveillance');
    expect(await tile('shop')).toMatchObject({ isAllEntitiesPaused: true, tileColor: 'pause', tileIcon: 'unmonitored', tileSecondaryIcon: null });
  });

  it('a disabled dependency that is paused does not count for the secondary icon', async () => {
    await pbehavior({ _id: 'swap/host2' }, 'Maintenance');
    expect(await tile('billing')).toMatchObject({ isAllEntitiesPaused: false, tileSecondaryIcon: null, tileColor: 'ok' });
  });

  it('follows the recurrence of pbehaviors and time', async () => {
    // Weekdays 13:00–14:00 UTC.
    await pbehavior({ _id: 'shop' }, 'Maintenance', { tstart: Date.UTC(2024, 0, 1, 13) / 1000, tstop: Date.UTC(2024, 0, 1, 14) / 1000, rrule: 'FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR', timezone: 'UTC' });
    expect((await tile('shop')).tileColor).toBe('major');
    clock.set(Date.UTC(2024, 0, 10, 13, 30));
    expect(await tile('shop')).toMatchObject({ tileColor: 'pause', tileIcon: 'maintenance' });
    clock.set(Date.UTC(2024, 0, 13, 13, 30));
    expect((await tile('shop')).tileColor).toBe('major');
  });

  it('counts a disabled pbehavior as the original did (activeness ignores enabled)', async () => {
    await pbehavior({ _id: 'shop' }, 'Pause', { enabled: false });
    expect((await tile('shop')).isWatcherPaused).toBe(true);
  });

  it('sees entities that start matching a pbehavior once the context graph reports them', async () => {
    await pbehavior({ name: 'new disk' }, 'Maintenance');
    await t.kernel.store.collection('default_entities').insertOne(resource('disk2/host1', 'new disk'));
    await t.kernel.store.collection('default_entities').updateOne({ _id: 'shop' }, { $set: { depends: ['disk2/host1'] } });
    await t.kernel.eventBus.emit(entitiesChangedEvent, { ids: ['disk2/host1', 'shop'] });
    expect(await tile('shop')).toMatchObject({ isAllEntitiesPaused: true, tileColor: 'pause', tileIcon: 'maintenance' });
  });
});

describe('special filter keys', () => {
  beforeEach(async () => {
    await pbehavior({ _id: 'disk/host1' }, 'Maintenance');
    await pbehavior({ _id: 'billing' }, 'Pause');
  });
  const ids = async (filter: unknown, query = '') => (await tiles(filter, query)).map((entry) => entry.entity_id);

  it('select tiles by pauses and pbehavior types', async () => {
    expect(await ids({ active_pb_some: true })).toEqual(['billing', 'shop']);
    expect(await ids({ active_pb_some: 'false' })).toEqual(['legacy', 'team/intranet']);
    expect(await ids({ active_pb_watcher: '1' })).toEqual(['billing']);
    expect(await ids({ $and: [{ active_pb_some: true }, { active_pb_exclude_type: 'pause' }] })).toEqual(['shop']);
    expect(await ids({ active_pb_include_type: 'MAINTENANCE', active_pb_some: true })).toEqual(['shop']);
    expect(await ids({ name: { $regex: 'Bill' }, active_pb_some: true })).toEqual(['billing']);
  });

  it('select tiles by computed tile values', async () => {
    expect(await ids({ tileColor: 'pause' })).toEqual(['billing']);
    expect(await ids({ tileSecondaryIcon: 'maintenance' })).toEqual(['shop']);
    expect(await ids({ tileIcon: { $in: ['ok', 'major'] } })).toEqual(['legacy', 'shop', 'team/intranet']);
  });

  it('apply after the page is cut, so a page can come back short', async () => {
    expect(await ids({ active_pb_some: true }, '?limit=2')).toEqual(['billing']);
  });
});

describe('GET /api/v2/weather/watchers/<watcher_id>', () => {
  it('lists the enabled dependencies by name with their alarm and active pbehaviors', async () => {
    const id = await pbehavior({ _id: 'mem/host2' }, 'Maintenance');
    const deps = await dependencies('billing');
    expect(deps).toEqual([
      {
        entity_id: 'mem/host2',
        name: 'mem',
        source_type: 'resource',
        infos: { site: { description: 'where it runs', value: 'Paris' } },
        state: step('stateinc', 1),
        status: step('statusinc', 1),
        snooze: step('snooze', now + 900),
        ack: step('ack', 1),
        ticket: { ...step('assocticket', 0), val: 'INC42', data: { url: 'https://tickets/42' } },
        connector: 'nagios',
        connector_name: 'edc',
        component: 'host2',
        resource: 'mem',
        last_update_date: now - hour,
        alarm_creation_date: now - 2 * hour,
        alarm_display_name: 'AB-CD-EF',
        automatic_action_timer: now + 300,
        pbehavior: [expect.objectContaining({ _id: id, type_: 'Maintenance', isActive: true, is_currently_active: true })],
        linklist: [],
      },
    ]);
    expect(deps[0]?.pbehavior[0]).not.toHaveProperty('eids');
  });

  it('leaves the alarm fields, state included, out of a dependency without an open alarm (a resolved one does not count)', async () => {
    const deps = await dependencies('shop');
    expect(deps.map((dep) => dep.entity_id)).toEqual(['cpu/host1', 'disk/host1']);
    expect(deps[0]).toEqual({ entity_id: 'cpu/host1', name: 'cpu', source_type: 'resource', infos: { site: { description: 'where it runs', value: 'Lyon' } }, pbehavior: [], linklist: [] });
  });

  it('takes a watcher id with a slash, raw or encoded, and an empty list for a watcher without dependencies', async () => {
    expect(await dependencies('team/intranet')).toEqual([]);
    expect(await dependencies('team%2Fintranet')).toEqual([]);
  });

  it("reads a legacy watcher's dependencies through its mfilter", async () => {
    // Sorted by name in code-point order: "Billing" before "mem".
    expect((await dependencies('legacy')).map((dep) => dep.entity_id)).toEqual(['billing', 'mem/host2']);
  });

  it('answers 404 resource_not_found for an unknown id or an entity that is not a watcher', async () => {
    for (const id of ['nope', 'disk/host1']) {
      const res = await t.get(`/api/v2/weather/watchers/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ name: 'resource_not_found', description: 'the watcher_id does not match any watcher' });
    }
  });

  it('answers 404 filter_not_found for a legacy watcher whose mfilter cannot be read', async () => {
    await t.kernel.store.collection('default_entities').updateOne({ _id: 'legacy' }, { $set: { mfilter: '{broken' } });
    const res = await t.get('/api/v2/weather/watchers/legacy');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ name: 'filter_not_found', description: 'impossible to load the desired filter' });
  });
});
