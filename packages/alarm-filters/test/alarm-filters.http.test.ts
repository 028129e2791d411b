import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@vigie/kernel';
import { startTestKernel } from '@vigie/kernel-testing';
import { alarmsFeature } from '@vigie/alarms';
import { memoryStoreFactory } from '@vigie/documents';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { alarmFiltersFeature } from '../src/index.js';

/** The alarm-filters feature and the features its engine depends on. */
const features = [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, alarmFiltersFeature];

const action = {
  entity_filter: { 'v.connector': 'nagios' },
  condition: { 'v.state.val': 1 },
  tasks: ['alerts.systemaction.state_increase'],
  output_format: '{old} -- raised by the alarm filter',
  limit: 3600,
};
const uuid4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function expectHtml500(res: { status: number; headers: Headers; text: string }): void {
  expect(res.status).toBe(500);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.text).toContain('<h1>Error: 500</h1>');
}

describe('alarm-filter actions over HTTP', () => {
  let t: TestKernel;
  beforeEach(async () => {
    t = await startFeatureTest({ features });
  });
  afterEach(() => t.stop());

  async function create(body: object): Promise<{ _id: string } & Record<string, unknown>> {
    const res = await t.post('/api/v2/alerts/filters', body);
    expect(res.status).toBe(200);
    return res.body as { _id: string };
  }

  it('creates, reads, lists, updates and deletes an action', async () => {
    const created = await t.post('/api/v2/alerts/filters', action);
    expect(created.status).toBe(200);
    const id = (created.body as { _id: string })._id;
    const expected = {
      _id: id,
      entity_filter: '{"v.connector":"nagios"}',
      condition: { 'v.state.val': 1 },
      tasks: ['alerts.systemaction.state_increase'],
      output_format: '{old} -- raised by the alarm filter',
      limit: 3600,
      postpone_if_active_pbehavior: false,
      repeat: 1,
    };
    expect(id).toMatch(uuid4);
    expect(created.body).toEqual(expected);

    const one = await t.get(`/api/v2/alerts/filters/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual([expected]);
    expect((await t.get('/api/v2/alerts/filters')).body).toEqual([expected]);

    const updated = await t.put(`/api/v2/alerts/filters/${id}`, { _id: id, limit: 60, tasks: ['alerts.useraction.ack', 'alerts.useraction.done'] });
    expect(updated.status).toBe(200);
    const merged = { ...expected, limit: 60, tasks: ['alerts.useraction.ack', 'alerts.useraction.done'] };
    expect(updated.body).toEqual(merged);
    expect((await t.get(`/api/v2/alerts/filters/${id}`)).body).toEqual([merged]);

    const deleted = await t.delete(`/api/v2/alerts/filters/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ n: 1, ok: 1 });

    const gone = await t.get(`/api/v2/alerts/filters/${id}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual([]);
    expect((await t.delete(`/api/v2/alerts/filters/${id}`)).body).toEqual({ n: 0, ok: 1 });
  });

  it('stores condition and entity_filter as JSON text, with the defaults, in the shape the engine reads', async () => {
    const { _id } = await create({ ...action, output_format: undefined });
    expect(await t.kernel.store.collection('default_alarmfilter').find({})).toEqual([
      {
        _id,
        entity_filter: '{"v.connector":"nagios"}',
        condition: '{"v.state.val":1}',
        tasks: ['alerts.systemaction.state_increase'],
        limit: 3600,
        postpone_if_active_pbehavior: false,
        repeat: 1,
      },
    ]);
  });

  it('accepts condition and entity_filter as JSON text, empty text meaning no constraint', async () => {
    const created = await create({ ...action, entity_filter: '{"v.state.val": {"$gte": 2}}', condition: '' });
    expect(created).toMatchObject({ entity_filter: '{"v.state.val":{"$gte":2}}', condition: {} });
    expect(await create({ ...action, condition: {} })).toMatchObject({ condition: {} });
  });

  it('keeps a client-chosen repeat, postpone flag and non-empty _id; generates the id when it is empty or null', async () => {
    expect(await create({ ...action, _id: 'my-filter', repeat: 3, postpone_if_active_pbehavior: true })).toMatchObject({
      _id: 'my-filter',
      repeat: 3,
      postpone_if_active_pbehavior: true,
    });
    expect((await create({ ...action, _id: '' }))._id).toMatch(uuid4);
    expect((await create({ ...action, _id: null }))._id).toMatch(uuid4);
  });

  it('refuses a client-chosen _id that is taken instead of overwriting that action', async () => {
    await create({ ...action, _id: 'taken' });
    const again = await t.post('/api/v2/alerts/filters', { ...action, _id: 'taken', limit: 1 });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ name: '', description: 'an alarm filter with this _id already exists' });
    expect((await t.get('/api/v2/alerts/filters/taken')).body).toMatchObject([{ limit: 3600 }]);
  });

  it('ignores unknown keys, storing and showing only the action fields', async () => {
    const created = await create({ ...action, author: 'me', extra: { a: 1 } });
    expect(created).not.toHaveProperty('author');
    const updated = await t.put(`/api/v2/alerts/filters/${created._id}`, { colour: 'red' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual(created);
    const [stored] = await t.kernel.store.collection('default_alarmfilter').find({});
    expect(stored).not.toHaveProperty('author');
    expect(stored).not.toHaveProperty('colour');
  });

  it('answers 400 failed to update filter to a PUT on an unknown id, creating nothing', async () => {
    const res = await t.put('/api/v2/alerts/filters/nope', { limit: 10 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: 'failed to update filter' });
    expect((await t.get('/api/v2/alerts/filters')).body).toEqual([]);
  });

  it('takes ids containing slashes, raw or URL-encoded', async () => {
    await create({ ...action, _id: 'disk/host' });
    expect((await t.get('/api/v2/alerts/filters/disk/host')).body).toMatchObject([{ _id: 'disk/host' }]);
    expect((await t.put('/api/v2/alerts/filters/disk%2Fhost', { repeat: 2 })).body).toMatchObject({ _id: 'disk/host', repeat: 2 });
    expect((await t.delete('/api/v2/alerts/filters/disk/host')).body).toEqual({ n: 1, ok: 1 });
  });

  it.each([
    ['no entity_filter', { ...action, entity_filter: undefined }],
    ['no condition', { ...action, condition: undefined }],
    ['no tasks', { ...action, tasks: undefined }],
    ['no limit', { ...action, limit: undefined }],
    ['a limit given as a string', { ...action, limit: '3600' }],
    ['a fractional limit', { ...action, limit: 1.5 }],
    ['a negative limit', { ...action, limit: -1 }],
    ['an unknown task', { ...action, tasks: ['alerts.useraction.state_increase'] }],
    ['tasks that are not a list', { ...action, tasks: 'alerts.useraction.ack' }],
    ['an empty task list', { ...action, tasks: [] }],
    ['a condition that is a list', { ...action, condition: [{ 'v.state.val': 1 }] }],
    ['a condition that is a number', { ...action, condition: 1 }],
    ['an entity_filter that is not JSON', { ...action, entity_filter: '{v.state.val: 1' }],
    ['an entity_filter whose JSON is not an object', { ...action, entity_filter: '[1]' }],
    ['an entity_filter running code', { ...action, entity_filter: { $where: 'sleep(1000)' } }],
    ['an entity_filter with a comparison at its top level', { ...action, entity_filter: { $ne: null } }],
    ['a condition with a catastrophic regex', { ...action, condition: { 'v.output': { $regex: '(a+)+$' } } }],
    ['a condition text with a forbidden operator', { ...action, condition: '{"$expr": {"$gt": ["$a", 1]}}' }],
    ['a repeat that is not an integer', { ...action, repeat: 'once' }],
    ['a postpone flag that is not a boolean', { ...action, postpone_if_active_pbehavior: 'yes' }],
    ['an _id that is not a string', { ...action, _id: 12 }],
    ['a list instead of an object', [action]],
  ])('answers 500 with an HTML page to a POST with %s, storing nothing', async (_case, body) => {
    expectHtml500(await t.post('/api/v2/alerts/filters', body));
    expect((await t.get('/api/v2/alerts/filters')).body).toEqual([]);
  });

  it.each([
    ['unparsable JSON', { body: '{"limit": ', headers: { 'content-type': 'application/json' } }],
    ['an empty body', { body: '', headers: { 'content-type': 'application/json' } }],
    ['no body at all', {}],
    ['a text body', { body: JSON.stringify(action), headers: { 'content-type': 'text/plain' } }],
    ['a form body', { body: 'limit=3600', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ['a body nested 100,000 deep', { body: `{"tasks":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, headers: { 'content-type': 'application/json' } }],
  ])('answers 500 with an HTML page to a POST and a PUT with %s', async (_case, options) => {
    expectHtml500(await t.request('POST', '/api/v2/alerts/filters', options));
    const { _id } = await create(action);
    expectHtml500(await t.request('PUT', `/api/v2/alerts/filters/${_id}`, options));
  });

  it('answers 500 with an HTML page to an invalid PUT, leaving the action unchanged', async () => {
    const created = await create(action);
    for (const body of [
      { limit: 'soon' },
      { tasks: ['alerts.useraction.nothing'] },
      { entity_filter: { $function: { body: 'x' } } },
      { _id: 'another-id' },
      { _id: null },
    ]) {
      expectHtml500(await t.put(`/api/v2/alerts/filters/${created._id}`, body));
    }
    expect((await t.get(`/api/v2/alerts/filters/${created._id}`)).body).toEqual([created]);
  });

  it('answers the invalid-body page before looking the id up on PUT', async () => {
    expectHtml500(await t.put('/api/v2/alerts/filters/nope', { limit: 'soon' }));
  });
});

describe('alarm-filter invalid bodies in the server log', () => {
  let t: TestKernel;
  const lines: string[] = [];
  beforeEach(async () => {
    lines.length = 0;
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    t = await startTestKernel({ store: memoryStoreFactory(), features, logger: createLogger({ level: 'error', destination }) });
  });
  afterEach(() => t.stop());

  it('logs the trace of the refused body and still serves the next request', async () => {
    const res = await t.post('/api/v2/alerts/filters', { ...action, tasks: ['alerts.useraction.fly'] });
    expectHtml500(res);
    expect(res.text).toContain('invalid alarm filter: tasks[0] must be one of the following values');
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { stack?: string } });
    const entry = logged.find((l) => l.msg.startsWith('invalid alarm filter'));
    expect(entry?.level).toBe(50);
    expect(entry?.err?.stack).toContain('ValidationError');
    expect((await t.post('/api/v2/alerts/filters', action)).status).toBe(200);
  });
});
