import { afterEach, describe, expect, it } from 'vitest';
import { EntityRepository, EventEntities } from '@vigie/context-graph';
import { event, startAlarms, startSec, type AlarmsHarness } from './harness.js';

let h: AlarmsHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** Three open alarms (a at t0 state 1, b at t0+10 state 3, c at t0+20 state 2) and one resolved (r). */
async function seed(): Promise<AlarmsHarness> {
  const harness = await startAlarms({ baggot_time: '1s' });
  await harness.send(event({ resource: 'r', state: 2, output: 'gone soon' }), event({ resource: 'r', state: 0 }));
  harness.clock.advance(2000);
  await harness.eventually({ opened: false, resolved: true }, (alarms) => alarms.length === 1);
  harness.clock.advance(8000);
  await harness.send(event({ resource: 'a', state: 1, output: 'Alpha warning' }));
  harness.clock.advance(10_000);
  await harness.send(event({ resource: 'b', state: 3, output: 'bravo critical' }));
  harness.clock.advance(10_000);
  await harness.send(event({ resource: 'c', state: 2, output: 'charlie major', connector: 'zabbix' }));
  return harness;
}

const ids = (alarms: { d: string }[]) => alarms.map((a) => a.d);

describe('GET /alerts/get-alarms', () => {
  it('answers {total, data: [{alarms, total, first, last}], success}, open alarms newest first, without steps by default', async () => {
    h = await seed();
    const res = await h.t.get('/alerts/get-alarms');
    expect(res.status).toBe(200);
    const body = res.body as { total: number; success: boolean; data: { alarms: { d: string; v: object; entity: object }[]; total: number; first: number; last: number }[] };
    expect(body).toMatchObject({ total: 1, success: true, data: [{ total: 3, first: 1, last: 3 }] });
    expect(ids(body.data[0]!.alarms)).toEqual(['c/host', 'b/host', 'a/host']);
    expect(body.data[0]!.alarms[0]!.v).not.toHaveProperty('steps');
    expect(body.data[0]!.alarms[0]!.entity).toMatchObject({ _id: 'c/host', type: 'resource' });
    expect(Object.keys(body.data[0]!.alarms[0]!).sort()).toEqual(['_id', 'd', 'entity', 't', 'v']);
    const [withSteps] = await h.alarms({ with_steps: true, limit: 1 });
    expect(withSteps!.v.steps).toHaveLength(2);
  });

  it('selects open and resolved alarms with opened and resolved', async () => {
    h = await seed();
    expect(ids(await h.alarms({ opened: false, resolved: true }))).toEqual(['r/host']);
    expect(ids(await h.alarms({ resolved: true }))).toEqual(['c/host', 'b/host', 'a/host', 'r/host']);
    expect(await h.alarms({ opened: false })).toEqual([]);
  });

  it('keeps the alarms of the tstart–tstop window', async () => {
    h = await seed();
    expect(ids(await h.alarms({ tstop: startSec + 20, resolved: true }))).toEqual(['b/host', 'a/host', 'r/host']);
    expect(ids(await h.alarms({ tstart: startSec + 5, resolved: true }))).toEqual(['c/host', 'b/host', 'a/host']);
  });

  it('filters on alarm fields with a JSON filter, and searches text', async () => {
    h = await seed();
    expect(ids(await h.alarms({ filter: JSON.stringify({ 'v.state.val': { $gte: 2 } }) }))).toEqual(['c/host', 'b/host']);
    expect(ids(await h.alarms({ filter: JSON.stringify({ 'v.connector': 'zabbix' }) }))).toEqual(['c/host']);
    expect(ids(await h.alarms({ search: 'ALPHA' }))).toEqual(['a/host']);
    expect(ids(await h.alarms({ search: 'b/ho' }))).toEqual(['b/host']);
    expect(ids(await h.alarms({ search: '.*' }))).toEqual([]);
  });

  it('sorts, and pages with skip and limit (first is 1-based)', async () => {
    h = await seed();
    expect(ids(await h.alarms({ sort_key: 'v.state.val', sort_dir: 'asc' }))).toEqual(['a/host', 'c/host', 'b/host']);
    const res = await h.t.get('/alerts/get-alarms?sort_key=t&sort_dir=ASC&skip=1&limit=1');
    expect((res.body as { data: unknown[] }).data[0]).toMatchObject({ total: 3, first: 2, last: 2, alarms: [{ d: 'b/host' }] });
  });

  it('sorts on up to three keys with `sort`, which replaces sort_key and sort_dir', async () => {
    h = await seed();
    expect(ids(await h.alarms({ sort: 'v.connector:DESC,v.state.val:ASC', sort_key: 't' }))).toEqual(['c/host', 'a/host', 'b/host']);
    expect(ids(await h.alarms({ sort: 'v.connector:desc,v.state.val:desc' }))).toEqual(['c/host', 'b/host', 'a/host']);
    expect(ids(await h.alarms({ sort: 'v.connector:ASC,v.state.val:DESC,t:ASC' }))).toEqual(['b/host', 'a/host', 'c/host']);
  });

  it('answers 400 with a clear description for bad query values and filters', async () => {
    h = await seed();
    const bad = async (query: string, description: RegExp) => {
      const res = await h!.t.get(`/alerts/get-alarms?${query}`);
      expect(res.status, query).toBe(400);
      expect((res.body as { description: string }).description).toMatch(description);
    };
    await bad('limit=0', /limit must be at least 1/);
    await bad('limit=abc', /limit must be an integer/);
    await bad('skip=-1', /skip must not be negative/);
    await bad('sort_dir=up', /sort_dir must be ASC or DESC/);
    await bad('sort_key=%24where', /sort_key must be a field path/);
    for (const sort of ['t', 't:up', '%24where:ASC', 't:ASC,t:DESC', 'a:ASC,b:ASC,c:ASC,d:ASC']) await bad(`sort=${sort}`, /sort must be 1 to 3 comma-separated field:ASC\|DESC pairs/);
    await bad('opened=maybe', /opened must be true or false/);
    await bad('tstart=yesterday', /tstart must be a number/);
    await bad('filter=%7Bnot%20json', /Invalid filter: not valid JSON/);
    await bad('filter=%5B1%5D', /Invalid filter: it must be a JSON object/);
    await bad(`filter=${encodeURIComponent(JSON.stringify({ $where: 'true' }))}`, /Invalid filter/);
    await bad('limit=1&limit=2', /limit is given more than once/);
  });

  it('requires authentication', async () => {
    h = await seed();
    expect((await h.t.request('GET', '/alerts/get-alarms', { auth: false })).status).toBe(401);
    expect((await h.t.request('GET', '/api/v2/alarms/x', { auth: false })).status).toBe(401);
  });
});

describe('GET /alerts/get-alarms for people: pages, sorts, search', () => {
  it('takes page besides skip (not both), with first and last of the page', async () => {
    h = await seed();
    const page = async (query: string) => {
      const res = await h!.t.get(`/alerts/get-alarms?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as { data: { alarms: { d: string }[]; total: number; first: number; last: number }[] }).data[0]!;
    };
    expect(await page('limit=2&page=2')).toMatchObject({ total: 3, first: 3, last: 3, alarms: [{ d: 'a/host' }] });
    expect(ids((await page('limit=2&page=1')).alarms)).toEqual(['c/host', 'b/host']);
    expect(ids((await page('limit=2&skip=1')).alarms)).toEqual(['b/host', 'a/host']);
    expect((await page('limit=2&page=3')).alarms).toEqual([]);
    const both = await h.t.get('/alerts/get-alarms?page=1&skip=0');
    expect(both.status).toBe(400);
    expect((both.body as { description: string }).description).toBe('Give skip or page, not both');
    expect(((await h.t.get('/alerts/get-alarms?page=0')).body as { description: string }).description).toBe('page must be at least 1');
  });

  it('sorts on up to three fields, one direction for all or one each', async () => {
    h = await seed();
    await h.send(event({ resource: 'd', state: 3, output: 'delta critical' }));
    expect(ids(await h.alarms({ sort_key: 'v.state.val,t', sort_dir: 'DESC,ASC' }))).toEqual(['b/host', 'd/host', 'c/host', 'a/host']);
    expect(ids(await h.alarms({ sort_key: 'v.state.val,t', sort_dir: 'DESC' }))).toEqual(['d/host', 'b/host', 'c/host', 'a/host']);
    expect(ids(await h.alarms({ sort_key: 'v.connector,v.state.val,t', sort_dir: 'ASC,ASC,DESC' }))).toEqual(['a/host', 'd/host', 'b/host', 'c/host']);
    for (const [query, description] of [
      ['sort_key=a,b,c,d', 'sort_key must be a field path, or up to 3 comma-separated ones, such as v.state.val,t'],
      ['sort_key=t,%24where', 'sort_key must be a field path, or up to 3 comma-separated ones, such as v.state.val,t'],
      ['sort_dir=ASC,DOWN', 'sort_dir must be ASC or DESC, or one of them per sort_key field'],
    ]) {
      const res = await h.t.get(`/alerts/get-alarms?${query}`);
      expect(res.status).toBe(400);
      expect((res.body as { description: string }).description).toBe(description);
    }
  });

  it('searches the display name, output, component, resource and the entity\'s infos', async () => {
    h = await seed();
    await h.t.kernel.store.collection('default_entities').updateOne({ _id: 'b/host' }, { $set: { infos: { site: { description: 'site', value: 'Lyon-Gerland' } } } });
    await h.t.kernel.store.collection('default_entities').updateOne({ _id: 'a/host' }, { $set: { infos: { Owner_Team: { description: 'owner', value: 'storage' } } } });
    expect(ids(await h.alarms({ search: 'lyon' }))).toEqual(['b/host']);
    expect(ids(await h.alarms({ search: 'owner_team' }))).toEqual(['a/host']);
    expect(ids(await h.alarms({ search: 'CHARLIE' }))).toEqual(['c/host']);
    expect(ids(await h.alarms({ search: 'host' }))).toEqual(['c/host', 'b/host', 'a/host']);
    const [c] = await h.alarms({ search: 'charlie' });
    expect(ids(await h.alarms({ search: c!.v.display_name }))).toEqual(['c/host']);
    expect(ids(await h.alarms({ search: 'zabbix' }))).toEqual(['c/host']);
    expect(await h.alarms({ search: 'nowhere' })).toEqual([]);
  });

  it('finds an entity by the new value of its infos once they change, and no longer by the old one', async () => {
    h = await seed();
    const scope = h.t.kernel.scope('context-graph');
    // Set as an event filter does, then as the entity API and imports do: each announces the change.
    await scope.resolve(EventEntities).setInfos('b/host', { site: { description: 'site', value: 'Lyon-Gerland' } });
    expect(ids(await h.alarms({ search: 'gerland' }))).toEqual(['b/host']);
    await scope.resolve(EventEntities).setInfos('b/host', { site: { description: 'site', value: 'Paris-Bercy' } });
    expect(await h.alarms({ search: 'gerland' })).toEqual([]);
    expect(ids(await h.alarms({ search: 'bercy' }))).toEqual(['b/host']);
    await scope.resolve(EntityRepository).updateDepends('c/host', { add: [], remove: [], fields: { infos: { Rack: { description: 'rack', value: ['R12', 'r13'] } } } });
    expect(ids(await h.alarms({ search: 'r13' }))).toEqual(['c/host']);
    expect(ids(await h.alarms({ search: 'RACK' }))).toEqual(['c/host']);
    await scope.resolve(EntityRepository).updateDepends('c/host', { add: [], remove: [], fields: { infos: {} } });
    expect(await h.alarms({ search: 'rack' })).toEqual([]);
    expect(ids(await h.alarms({ search: 'bercy' }))).toEqual(['b/host']);
  });
});

describe('GET /api/v2/alarm-counters', () => {
  it('counts the alarms of the list\'s filter per state, acknowledged, snoozed and under pbehavior', async () => {
    h = await seed();
    const [b] = await h.alarms({ search: 'bravo' });
    const [c] = await h.alarms({ search: 'charlie' });
    expect((await h.t.put(`/api/v2/alarms/${b!._id}/ack`, {})).status).toBe(200);
    expect((await h.t.put(`/api/v2/alarms/${c!._id}/snooze`, { duration: { value: 1, unit: 'h' } })).status).toBe(200);
    const counters = async (query = '') => {
      const res = await h!.t.get(`/api/v2/alarm-counters${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    expect(await counters()).toEqual({ total: 3, by_state: { '0': 0, '1': 1, '2': 1, '3': 1 }, acknowledged: 1, unacknowledged: 2, snoozed: 1, under_pbehavior: 0 });
    expect(await counters(`?filter=${encodeURIComponent('{"v.state.val":{"$gte":2}}')}`)).toMatchObject({ total: 2, acknowledged: 1, snoozed: 1 });
    expect(await counters('?search=alpha')).toMatchObject({ total: 1, by_state: { '1': 1 } });
    expect(await counters('?resolved=true')).toMatchObject({ total: 4, by_state: { '0': 1 } });
    const bad = await h.t.get(`/api/v2/alarm-counters?filter=${encodeURIComponent('{"$where":"1"}')}`);
    expect(bad.status).toBe(400);
  });
});

describe('GET /api/v2/alarms/<id>', () => {
  it('answers one alarm with its steps and entity, 404 when unknown', async () => {
    h = await seed();
    const [listed] = await h.alarms({ limit: 1 });
    const res = await h.t.get(`/api/v2/alarms/${listed!._id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: listed!._id, d: 'c/host', entity: { _id: 'c/host' }, v: { steps: [{ _t: 'stateinc' }, { _t: 'statusinc' }] } });
    const missing = await h.t.get('/api/v2/alarms/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ name: 'not_found', description: 'No alarm with id nope' });
  });
});
