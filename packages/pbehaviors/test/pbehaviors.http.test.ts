import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { alarmsFeature } from '@vigie/alarms';
import { entitiesChangedEvent, contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { activePbehaviorsRef, pbehaviorsFeature, type PbehaviorOutput, type PbehaviorRecord } from '../src/index.js';

const start = Date.UTC(2024, 0, 10, 12);
const now = start / 1000;
const hour = 3600;

let clock: ManualClock;
let t: TestKernel;

const entities = [
  { _id: 'disk/host1', name: 'disk', type: 'resource', enabled: true, infos: { site: { description: 'site', value: 'Lyon' } }, depends: [], impact: ['host1'] },
  { _id: 'cpu/host1', name: 'cpu', type: 'resource', enabled: true, infos: { site: { description: 'site', value: 'Paris' } }, depends: [], impact: ['host1'] },
  { _id: 'host1', name: 'host1', type: 'component', enabled: true, infos: {}, depends: ['disk/host1', 'cpu/host1'], impact: [] },
];

async function startWith(config: Record<string, string> = {}): Promise<void> {
  clock = new ManualClock(start);
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature], clock, config: { 'webserver.conf': { pbehaviors: config } } });
  await t.kernel.store.collection('default_entities').insertMany(entities);
}

beforeEach(() => startWith());
afterEach(() => t.stop());

const body = (extra: Record<string, unknown> = {}) => ({ name: 'disk maintenance', author: 'ada', filter: { _id: 'disk/host1' }, tstart: now - hour, tstop: now + hour, ...extra });
const stored = (id: string) => t.kernel.store.collection<PbehaviorRecord>('default_pbehavior').findOne({ _id: id });
const list = async (query = ''): Promise<PbehaviorOutput[]> => (await t.get(`/api/v2/pbehavior${query}`)).body as PbehaviorOutput[];

async function create(extra: Record<string, unknown> = {}, query = ''): Promise<string> {
  const res = await t.post(`/api/v2/pbehavior${query}`, body(extra));
  expect(res.status, res.text).toBe(200);
  return res.body as string;
}

describe('POST /api/v2/pbehavior', () => {
  it('answers the new id as a JSON string and stores the defaults, the filter as text and the selected entities', async () => {
    const res = await t.post('/api/v2/pbehavior', { name: 'x', filter: { 'infos.site.value': 'Lyon' }, tstart: now, tstop: now + hour, comments: [{ author: 'bob', message: 'hi' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.text).toMatch(/^"[0-9a-f-]{36}"$/);
    const id = res.body as string;
    const [shown] = await list();
    expect(shown).toEqual({
      _id: id,
      name: 'x',
      author: 'root',
      filter: '{"infos.site.value":"Lyon"}',
      tstart: now,
      tstop: now + hour,
      rrule: null,
      enabled: true,
      comments: [{ _id: expect.stringMatching(/^[0-9a-f-]{36}$/), author: 'bob', message: 'hi' }],
      connector: 'canopsis',
      connector_name: 'canopsis',
      type_: 'generic',
      reason: '',
      timezone: 'Europe/Paris',
      exdate: [],
      eids: ['disk/host1'],
      isActive: true,
      is_currently_active: true,
    });
  });

  it('reads a body sent with another content type as no body, as the original did (REFERENCE §3.4)', async () => {
    const res = await t.request('POST', '/api/v2/pbehavior', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: 'The fields name, filter, author, tstart, tstop are required.' });
  });

  it('drops keys it does not know, as the original does (REFERENCE §4.10)', async () => {
    const id = await create({ colour: 'red', size: 3 });
    const shown = await stored(id);
    expect(shown).not.toHaveProperty('colour');
    expect(shown).not.toHaveProperty('size');
    const res = await t.put(`/api/v2/pbehavior/${encodeURIComponent(id)}`, { name: 'renamed', colour: 'blue' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'renamed' });
    expect(res.body).not.toHaveProperty('colour');
  });

  it('keeps a given author and _id, and takes the default zone from [pbehaviors] default_timezone', async () => {
    await t.stop();
    await startWith({ default_timezone: 'America/New_York' });
    expect(await create({ _id: 'maint/disk host1' })).toBe('maint/disk host1');
    expect(await stored('maint/disk host1')).toMatchObject({ author: 'ada', timezone: 'America/New_York' });
  });

  it("accepts the original's forms: filter_ for filter, the filter as JSON text, enabled as text, null for absent", async () => {
    const id = await create({ filter: undefined, filter_: '{"_id": {"$in": ["cpu/host1", "host1"]}}', enabled: 'False', rrule: null, reason: null });
    expect(await stored(id)).toMatchObject({ filter: '{"_id":{"$in":["cpu/host1","host1"]}}', enabled: false, rrule: null, reason: '', eids: ['cpu/host1', 'host1'] });
  });

  it('accepts a pbehavior read back from the API (output-only fields are ignored)', async () => {
    const id = await create({ _id: 'round-trip' });
    const [read] = await list();
    await t.delete(`/api/v2/pbehavior/${id}`);
    const res = await t.post('/api/v2/pbehavior', { ...read, filter: JSON.parse((read as PbehaviorOutput).filter) });
    expect(res.status, res.text).toBe(200);
  });

  it.each([
    ['name', { name: undefined }],
    ['an empty name', { name: '' }],
    ['filter', { filter: undefined }],
    ['tstart', { tstart: undefined }],
    ['tstop', { tstop: null }],
  ])('refuses a body without %s', async (_what, extra) => {
    const res = await t.post('/api/v2/pbehavior', body(extra));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: 'The fields name, filter, author, tstart, tstop are required.' });
  });

  it('refuses an absent body with the same message, and a body that is not JSON', async () => {
    const empty = await t.request('POST', '/api/v2/pbehavior');
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ name: '', description: 'The fields name, filter, author, tstart, tstop are required.' });
    const broken = await t.request('POST', '/api/v2/pbehavior', { body: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect((broken.body as { description: string }).description).toMatch(/^Invalid JSON/);
  });

  it.each([
    [{ tstart: '1704888000' }, 'The tstart must be an integer (epoch seconds)'],
    [{ tstop: now + 0.5 }, 'The tstop must be an integer (epoch seconds)'],
    [{ tstop: now - hour }, 'tstop cannot be inferior or equal to tstart'],
    [{ tstop: now - 2 * hour }, 'tstop cannot be inferior or equal to tstart'],
    [{ rrule: 'BYDAY=MO' }, 'Invalid RRULE: FREQ is required'],
    [{ rrule: 'FREQ=WEEKLY;BYDAY=XX' }, 'Invalid RRULE: BYDAY weekdays must be one of MO, TU, WE, TH, FR, SA, SU, not "XX"'],
    [{ timezone: 'Mars/Olympus' }, 'The timezone "Mars/Olympus" is not a known IANA time zone (such as Europe/Paris or UTC)'],
    [{ filter: { $where: 'sleep(1000)' } }, 'Invalid filter: operator $where is not allowed'],
    [{ filter: { $or: [{ type: 'resource' }, { $exists: true }] } }, expect.stringMatching(/^Invalid filter: unknown top level operator \$exists/)],
    [{ filter: { name: { $regex: '(a+)+$' } } }, 'Invalid filter: nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions'],
    [{ filter: { name: { $in: 'disk' } } }, expect.stringMatching(/^Invalid filter: /)],
    [{ filter: ['disk'] }, 'The filter must be a JSON object (a query on entities)'],
    [{ filter: 'not json' }, 'The filter must be a JSON object (a query on entities)'],
    [{ exdate: ['yesterday'] }, 'The exdate items must be an integer (epoch seconds)'],
    [{ comments: [{ author: 'bob' }] }, 'Each comment needs an author and a message'],
    [{ enabled: 'yes' }, 'The enabled field must be a boolean'],
    [{ _id: 'x'.repeat(256) }, 'The _id must be at most 255 characters long'],
  ])('refuses %j', async (extra, description) => {
    const res = await t.post('/api/v2/pbehavior', body(extra));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description });
  });

  it('refuses a body that is not an object', async () => {
    const res = await t.post('/api/v2/pbehavior', ['x']);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: 'The pbehavior must be a JSON object' });
  });

  it('refuses an existing _id', async () => {
    await create({ _id: 'p1' });
    const res = await t.post('/api/v2/pbehavior', body({ _id: 'p1' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: 'Trying to insert PBehavior with already existing _id' });
  });

  it('with replace_expired=1, archives an expired pbehavior as EXP<ms>-<_id>, disabled, and creates the new one', async () => {
    await create({ _id: 'p1', name: 'old', tstart: now - 3 * hour, tstop: now - hour });
    clock.advance(1234);
    expect(await create({ _id: 'p1', name: 'new' }, '?replace_expired=1')).toBe('p1');
    const archivedId = `EXP${start + 1234}-p1`;
    expect(await stored('p1')).toMatchObject({ name: 'new', enabled: true });
    expect(await stored(archivedId)).toMatchObject({ name: 'old', enabled: false, eids: ['disk/host1'] });
    expect((await list()).map((p) => p._id).sort()).toEqual([archivedId, 'p1']);
  });

  it('with replace_expired=1, still refuses to replace a pbehavior that is not expired', async () => {
    await create({ _id: 'running' });
    await create({ _id: 'future', tstart: now + hour, tstop: now + 2 * hour });
    await create({ _id: 'weekly', tstart: now - 30 * 86400, tstop: now - 30 * 86400 + hour, rrule: 'FREQ=WEEKLY' });
    for (const id of ['running', 'future', 'weekly']) {
      const res = await t.post('/api/v2/pbehavior?replace_expired=1', body({ _id: id }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ name: '', description: 'Trying to insert PBehavior with already existing _id' });
    }
  });

  it('with replace_expired=1, replaces a recurring pbehavior whose last occurrence has ended', async () => {
    await create({ _id: 'counted', tstart: now - 10 * 86400, tstop: now - 10 * 86400 + hour, rrule: 'FREQ=DAILY;COUNT=3' });
    expect(await create({ _id: 'counted' }, '?replace_expired=true')).toBe('counted');
  });

  it('refuses a replace_expired value that is not a flag', async () => {
    const res = await t.post('/api/v2/pbehavior?replace_expired=maybe', body());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: 'replace_expired must be true or false (or 1, 0)' });
  });

  it('requires authentication', async () => {
    expect((await t.post('/api/v2/pbehavior', body(), { auth: false })).status).toBe(401);
  });
});

describe('PUT /api/v2/pbehavior/<id>', () => {
  it('changes the given fields, leaves null/absent ones, eids and comments, and answers the spec fields', async () => {
    const id = await create({ _id: 'disk/host1 maintenance', comments: [{ author: 'bob', message: 'kept' }], type_: 'Maintenance' });
    const res = await t.put(`/api/v2/pbehavior/${id}`, { name: 'renamed', reason: 'Autre', tstop: now + 2 * hour, type_: null, eids: ['x'], comments: [], exdate: [now + 86400] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      name: 'renamed',
      author: 'ada',
      reason: 'Autre',
      filter: '{"_id":"disk/host1"}',
      type_: 'Maintenance',
      exdate: [now + 86400],
      tstart: now - hour,
      tstop: now + 2 * hour,
    });
    expect(await stored(id)).toMatchObject({ eids: ['disk/host1'], comments: [{ author: 'bob', message: 'kept' }], enabled: true });
  });

  it('computes eids again when the filter changes, and removes a recurrence with rrule ""', async () => {
    const id = await create({ rrule: 'FREQ=DAILY' });
    await t.put(`/api/v2/pbehavior/${id}`, { filter: { type: 'resource' }, rrule: '' });
    expect(await stored(id)).toMatchObject({ filter: '{"type":"resource"}', eids: ['disk/host1', 'cpu/host1'], rrule: null });
  });

  it('refuses an unknown id', async () => {
    const res = await t.put('/api/v2/pbehavior/nope', { name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: 'The id does not match any pbehavior' });
  });

  it.each([
    [{ tstop: 1 }, 'tstop cannot be inferior or equal to tstart'],
    [{ rrule: 'FREQ=NEVER' }, 'Invalid RRULE: FREQ must be one of YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY, SECONDLY, not "NEVER"'],
    [{ timezone: 'Nowhere' }, 'The timezone "Nowhere" is not a known IANA time zone (such as Europe/Paris or UTC)'],
    [{ _id: 'other' }, 'The _id of a pbehavior cannot be modified'],
    [{ filter: { $function: {} } }, 'Invalid filter: operator $function is not allowed'],
    [{ tstart: 'now' }, 'The tstart must be an integer (epoch seconds)'],
  ])('refuses %j and changes nothing', async (change, description) => {
    const id = await create();
    const res = await t.put(`/api/v2/pbehavior/${id}`, change);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description });
    expect(await stored(id)).toMatchObject({ tstop: now + hour, rrule: null, timezone: 'Europe/Paris' });
  });

  it('answers the stored fields to an empty body', async () => {
    const id = await create();
    const res = await t.request('PUT', `/api/v2/pbehavior/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'disk maintenance', tstop: now + hour });
  });
});

describe('DELETE /api/v2/pbehavior/<id>', () => {
  it('answers how many were deleted, 0 for an unknown id, for ids with slashes raw or encoded', async () => {
    await create({ _id: 'a/b' });
    await create({ _id: 'c/d' });
    expect((await t.delete('/api/v2/pbehavior/a/b')).body).toEqual({ deletedCount: 1, acknowledged: true });
    expect((await t.delete('/api/v2/pbehavior/c%2Fd')).body).toEqual({ deletedCount: 1, acknowledged: true });
    const again = await t.delete('/api/v2/pbehavior/a/b');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ deletedCount: 0, acknowledged: true });
    expect(await list()).toEqual([]);
  });
});

describe('GET /api/v2/pbehavior_byeid/<entity_id>', () => {
  it('lists the pbehaviors applied to an entity whose id has a slash, raw or encoded', async () => {
    await create({ _id: 'on-disk' });
    await create({ _id: 'on-cpu', filter: { _id: 'cpu/host1' } });
    for (const path of ['/api/v2/pbehavior_byeid/disk/host1', '/api/v2/pbehavior_byeid/disk%2Fhost1']) {
      const res = await t.get(path);
      expect(res.status).toBe(200);
      expect((res.body as PbehaviorOutput[]).map((p) => p._id)).toEqual(['on-disk']);
    }
    expect((await t.get('/api/v2/pbehavior_byeid/unknown')).body).toEqual([]);
  });

  it('keeps enabled or disabled ones with enabled=1|0', async () => {
    await create({ _id: 'on' });
    await create({ _id: 'off', enabled: false });
    const ids = async (query: string) => ((await t.get(`/api/v2/pbehavior_byeid/disk/host1${query}`)).body as PbehaviorOutput[]).map((p) => p._id);
    expect(await ids('')).toEqual(['off', 'on']);
    expect(await ids('?enabled=1')).toEqual(['on']);
    expect(await ids('?enabled=0')).toEqual(['off']);
    const bad = await t.get('/api/v2/pbehavior_byeid/disk/host1?enabled=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ name: '', description: 'enabled must be true or false (or 1, 0)' });
  });

  it("shows isActive as the original did (inside [tstart, tstop]) and is_currently_active with the recurrence", async () => {
    // Mondays from 08:00 to 13:00 UTC, starting on Wednesday 2024-01-10: the first occurrence is on the 15th.
    await create({ _id: 'mondays', tstart: Date.UTC(2024, 0, 10, 8) / 1000, tstop: Date.UTC(2024, 0, 10, 13) / 1000, rrule: 'FREQ=WEEKLY;BYDAY=MO', timezone: 'UTC' });
    const shown = async () => ((await t.get('/api/v2/pbehavior_byeid/disk/host1')).body as PbehaviorOutput[])[0];
    expect(await shown()).toMatchObject({ isActive: true, is_currently_active: false });
    clock.set(Date.UTC(2024, 0, 15, 9));
    expect(await shown()).toMatchObject({ isActive: false, is_currently_active: true });
  });
});

describe('GET /api/v2/pbehavior', () => {
  it('lists every pbehavior, or with current_active_pbh=true those active at the time of the request', async () => {
    await create({ _id: 'now' });
    await create({ _id: 'later', tstart: now + 2 * hour, tstop: now + 3 * hour });
    await create({ _id: 'weekdays', tstart: Date.UTC(2024, 0, 1, 11) / 1000, tstop: Date.UTC(2024, 0, 1, 13) / 1000, rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', timezone: 'UTC' });
    expect((await list()).map((p) => p._id)).toEqual(['later', 'now', 'weekdays']);
    expect((await list('?current_active_pbh=true')).map((p) => p._id)).toEqual(['now', 'weekdays']);
    expect((await list('?current_active_pbh=false')).length).toBe(3);
    clock.advance(2.5 * hour * 1000);
    expect((await list('?current_active_pbh=1')).map((p) => p._id)).toEqual(['later']);
    clock.set(Date.UTC(2024, 0, 13, 12)); // a Saturday
    expect((await list('?current_active_pbh=1')).map((p) => p._id)).toEqual([]);
    const bad = await t.get('/api/v2/pbehavior?current_active_pbh=sometimes');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ name: '', description: 'current_active_pbh must be true or false (or 1, 0)' });
  });

  it('follows the reference test vector of REFERENCE §5.9', async () => {
    await create({ _id: 'vector', rrule: 'FREQ=WEEKLY;BYDAY=FR', tstart: 1529085600, tstop: 1529294400, timezone: 'UTC' });
    const vector: [number, boolean][] = [
      [1529086401, true],
      [1529154801, true],
      [1529290800, true],
      [1529740800, true],
      [1529068401, false],
      [1529308800, false],
    ];
    for (const [at, active] of vector) {
      for (const weeks of [0, 1]) {
        clock.set((at + weeks * 7 * 86400) * 1000);
        expect({ at, weeks, active: (await list('?current_active_pbh=true')).length === 1 }).toEqual({ at, weeks, active });
      }
    }
  });
});

describe('GET /pbehavior/read', () => {
  beforeEach(async () => {
    await create({ _id: 'a', name: 'Alpha (disk)', reason: 'Problème Robot', tstart: now - hour, tstop: now + hour });
    await create({ _id: 'b', name: 'Beta', author: 'bob', filter: { _id: 'cpu/host1' }, tstart: now + hour, tstop: now + 2 * hour });
    await create({ _id: 'c', name: 'Gamma', comments: [{ author: 'eve', message: 'see ticket 42' }], tstart: now - 2 * hour, tstop: now + 2 * hour });
  });
  const read = async (query = '') => {
    const res = await t.get(`/pbehavior/read${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as { total: number; data: [{ count: number; total_count: number; data: PbehaviorOutput[] }]; success: boolean };
  };
  const ids = async (query: string) => (await read(query)).data[0].data.map((p) => p._id);

  it('answers in the original envelope with is_currently_active', async () => {
    const answer = await read();
    expect(answer).toMatchObject({ total: 1, success: true, data: [{ count: 3, total_count: 3 }] });
    expect(Object.keys(answer.data[0])).toEqual(['count', 'total_count', 'data']);
    expect(answer.data[0].data.map((p) => [p._id, p.is_currently_active])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
  });

  it('paginates with skip and limit, total_count counting every match', async () => {
    expect((await read('?skip=1&limit=1')).data[0]).toMatchObject({ count: 1, total_count: 3, data: [{ _id: 'b' }] });
    expect((await read('?limit=0')).data[0].count).toBe(3);
  });

  it('selects by _id, and answers empty data for an unknown one', async () => {
    expect(await ids('?_id=b')).toEqual(['b']);
    expect((await read('?_id=zz')).data).toEqual([{ count: 0, total_count: 0, data: [] }]);
  });

  it('searches case-insensitively and literally through names, reasons, authors, comments and eids', async () => {
    expect(await ids('?search=alpha%20(DISK)')).toEqual(['a']);
    expect(await ids('?search=robot')).toEqual(['a']);
    expect(await ids('?search=BOB')).toEqual(['b']);
    expect(await ids('?search=ticket%2042')).toEqual(['c']);
    expect(await ids('?search=cpu%2F')).toEqual(['b']);
    expect(await ids('?search=.*')).toEqual([]);
  });

  it('keeps the active ones with current_active_pbh and counts only them', async () => {
    expect((await read('?current_active_pbh=true&limit=1')).data[0]).toMatchObject({ count: 1, total_count: 2, data: [{ _id: 'a' }] });
  });

  it('sorts by fields, in any of the forms, is_currently_active included', async () => {
    expect(await ids('?sort=' + encodeURIComponent('[{"property":"name","direction":"DESC"}]'))).toEqual(['c', 'b', 'a']);
    expect(await ids('?sort=' + encodeURIComponent('["tstart"]'))).toEqual(['c', 'a', 'b']);
    expect(await ids('?sort=' + encodeURIComponent('{"property":"tstop","direction":"desc"}'))).toEqual(['b', 'c', 'a']);
    expect(await ids('?sort=author,_id')).toEqual(['a', 'c', 'b']);
    expect(await ids('?sort=' + encodeURIComponent('[{"property":"is_currently_active","direction":"DESC"},"_id"]') + '&skip=1')).toEqual(['c', 'b']);
  });

  it.each([
    ['?sort=password', 'Cannot sort on "password": the sortable fields are _id, name, author, tstart, tstop, type_, reason, enabled, connector, connector_name, timezone, rrule, is_currently_active, isActive'],
    ['?sort=' + encodeURIComponent('[{"property":"name","direction":"UP"}]'), 'The sort direction must be ASC or DESC, not "UP"'],
    ['?limit=-1', 'limit must be a non-negative integer'],
    ['?skip=two', 'skip must be a non-negative integer'],
    ['?limit=1&limit=2', expect.stringContaining('limit')],
  ])('refuses %s', async (query, description) => {
    const res = await t.get(`/pbehavior/read${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description });
  });
});

describe('the activePbehaviors service', () => {
  const service = () => t.kernel.scope('pbehaviors').resolve(activePbehaviorsRef);

  it('tells whether an entity is paused now or at another instant, and by which types', async () => {
    await create({ _id: 'maintenance', type_: 'Maintenance' });
    await create({ _id: 'pause', type_: 'Pause', filter: { _id: { $in: ['disk/host1', 'cpu/host1'] } }, tstart: now + hour, tstop: now + 2 * hour });
    const current = await service().at();
    expect(current.at).toBe(now);
    expect(current.on('disk/host1').map((p) => p._id)).toEqual(['maintenance']);
    expect(current.isPaused('disk/host1')).toBe(true);
    expect(current.isPaused('cpu/host1')).toBe(false);
    expect(current.pauseTypes('disk/host1')).toEqual(['Maintenance']);
    expect(current.all().map((p) => p._id)).toEqual(['maintenance']);
    const later = await service().at(now + hour); // both windows include it: their ends are inclusive
    expect(later.pauseTypes('disk/host1').sort()).toEqual(['Maintenance', 'Pause']);
    expect(later.isPaused('cpu/host1')).toBe(true);
    expect(later.isPaused('host1')).toBe(false);
  });

  it('sees pbehaviors written by another node once its index is older than refresh_seconds', async () => {
    await service().at();
    const other: PbehaviorRecord = {
      _id: 'from-another-node', name: 'x', author: 'y', filter: '{}', tstart: now - hour, tstop: now + hour, rrule: null, enabled: true, comments: [],
      connector: 'canopsis', connector_name: 'canopsis', type_: 'Pause', reason: '', timezone: 'UTC', exdate: [], eids: ['host1'],
    };
    await t.kernel.store.collection<PbehaviorRecord>('default_pbehavior').insertOne(other);
    expect((await service().at()).isPaused('host1')).toBe(false);
    clock.advance(61_000);
    expect((await service().at()).isPaused('host1')).toBe(false); // answers at once, and reloads right after
    await vi.waitFor(async () => expect((await service().at()).isPaused('host1')).toBe(true), { timeout: 30_000 });
  });
});

describe('eids follow the context graph', () => {
  const entitiesCollection = () => t.kernel.store.collection('default_entities');

  it('adds entities the filter starts selecting and removes those it stops selecting or that are deleted', async () => {
    const id = await create({ filter: { type: 'resource', 'infos.site.value': { $in: ['Lyon', 'Paris'] } } });
    expect((await stored(id))?.eids).toEqual(['disk/host1', 'cpu/host1']);

    await entitiesCollection().insertOne({ _id: 'mem/host1', name: 'mem', type: 'resource', enabled: true, infos: { site: { value: 'Paris' } } });
    await entitiesCollection().updateOne({ _id: 'cpu/host1' }, { $set: { 'infos.site.value': 'Nice' } });
    await entitiesCollection().deleteOne({ _id: 'disk/host1' });
    await t.kernel.eventBus.emit(entitiesChangedEvent, { ids: ['mem/host1', 'cpu/host1', 'disk/host1', 'host1'] });

    expect((await stored(id))?.eids).toEqual(['mem/host1']);
    expect(((await t.get('/api/v2/pbehavior_byeid/mem/host1')).body as PbehaviorOutput[]).map((p) => p._id)).toEqual([id]);
    expect((await t.get('/api/v2/pbehavior_byeid/cpu/host1')).body).toEqual([]);
    expect((await list('?current_active_pbh=true'))[0]?.eids).toEqual(['mem/host1']);
  });

  it('tests changed entities on every field a filter names under $or and $nor, and leaves entities no pbehavior concerns', async () => {
    const id = await create({ filter: { $or: [{ 'infos.site.value': 'Lyon' }, { name: 'mem' }], $nor: [{ enabled: false }] } });
    const pinned = await create({ filter: { _id: 'disk/host1' } });
    const before = (await stored(id))?.eids;
    await entitiesCollection().insertOne({ _id: 'mem/host2', name: 'mem', type: 'resource', enabled: true, infos: {} });
    await entitiesCollection().insertOne({ _id: 'swap/host2', name: 'swap', type: 'resource', enabled: false, infos: { site: { value: 'Lyon' } } });
    await t.kernel.eventBus.emit(entitiesChangedEvent, { ids: ['mem/host2', 'swap/host2'] });
    expect((await stored(id))?.eids).toEqual([...(before ?? []), 'mem/host2']);
    expect((await stored(pinned))?.eids).toEqual(['disk/host1']);
  });

  it('does the same for filters that name entity ids, including entities created later', async () => {
    const future = await create({ filter: { _id: { $in: ['future/host9', 'disk/host1'] }, enabled: true } });
    const disk = await create({ filter: { _id: 'disk/host1' } });
    expect((await stored(future))?.eids).toEqual(['disk/host1']);

    await entitiesCollection().insertOne({ _id: 'future/host9', name: 'future', type: 'resource', enabled: true, infos: {} });
    await entitiesCollection().updateOne({ _id: 'disk/host1' }, { $set: { enabled: false } });
    await t.kernel.eventBus.emit(entitiesChangedEvent, { ids: ['future/host9', 'disk/host1'] });

    expect((await stored(future))?.eids).toEqual(['future/host9']);
    expect((await stored(disk))?.eids).toEqual(['disk/host1']);
  });
});
