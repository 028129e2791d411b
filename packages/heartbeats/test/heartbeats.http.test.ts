import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestKernel } from '@vigie/kernel-testing';
import { eventsFeature } from '@vigie/events';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { heartbeatsFeature } from '../src/index.js';
import { storeFailingOn } from './failing-store.js';

const pattern = { connector: 'c2', connector_name: 'connector2' };
/** REFERENCE §4.5: md5 of `connectorc2connector_nameconnector2`. */
const patternId = '3d071cb49acce44040b35ed8c6714ef1';
const invalidPayload = { name: '', description: 'invalid heartbeat payload.' };
const notFound = (id: string) => ({ name: id, description: 'heartbeat not found' });

describe('heartbeats over HTTP', () => {
  let t: TestKernel;
  beforeEach(async () => {
    t = await startFeatureTest({ features: [eventsFeature, heartbeatsFeature] });
  });
  afterEach(() => t.stop());

  it('creates, reads, lists, updates and deletes a heartbeat', async () => {
    const created = await t.post('/api/v2/heartbeat/', { pattern, expected_interval: '15m' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ name: 'heartbeat created', description: patternId });

    const one = await t.get(`/api/v2/heartbeat/${patternId}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ _id: patternId, pattern, expected_interval: '15m' });

    for (const path of ['/api/v2/heartbeat/', '/api/v2/heartbeat']) {
      const list = await t.get(path);
      expect(list.status).toBe(200);
      expect(list.body).toEqual([{ _id: patternId, pattern, expected_interval: '15m' }]);
    }

    const updated = await t.put(`/api/v2/heartbeat/${patternId}`, { pattern, expected_interval: '1h' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ name: 'heartbeat updated', description: patternId });
    expect((await t.get(`/api/v2/heartbeat/${patternId}`)).body).toMatchObject({ expected_interval: '1h' });

    const removed = await t.delete(`/api/v2/heartbeat/${patternId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ name: 'heartbeat removed', description: patternId });

    const gone = await t.get(`/api/v2/heartbeat/${patternId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(notFound(patternId));
    expect((await t.get('/api/v2/heartbeat')).body).toEqual([]);
  });

  it('accepts POST with and without the trailing slash and stores the shape the engine reads', async () => {
    expect((await t.post('/api/v2/heartbeat', { pattern: { connector: 'a' }, expected_interval: '10s' })).status).toBe(200);
    expect((await t.post('/api/v2/heartbeat/', { pattern: { connector: 'b' }, expected_interval: '10s' })).status).toBe(200);
    const stored = await t.kernel.store.collection('heartbeat').find({}, { sort: { _id: 1 } });
    expect(stored).toHaveLength(2);
    for (const doc of stored) expect(Object.keys(doc).sort()).toEqual(['_id', 'expected_interval', 'pattern']);
  });

  it('refuses a second heartbeat for the same pattern, whatever the key order', async () => {
    await t.post('/api/v2/heartbeat', { pattern, expected_interval: '15m' });
    const again = await t.post('/api/v2/heartbeat', { pattern: { connector_name: 'connector2', connector: 'c2' }, expected_interval: '5m' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ name: '', description: 'heartbeat pattern already exists' });
  });

  it('ignores keys other than pattern, expected_interval and output, as the original does; output is not shown', async () => {
    const created = await t.post('/api/v2/heartbeat', { pattern, expected_interval: '15m', _id: 'mine', name: 'x', output: 'y' });
    expect(created.body).toEqual({ name: 'heartbeat created', description: patternId });
    expect((await t.get(`/api/v2/heartbeat/${patternId}`)).body).toEqual({ _id: patternId, pattern, expected_interval: '15m' });
    expect(await t.kernel.store.collection('heartbeat').findOne({ _id: patternId })).toEqual({ _id: patternId, pattern, expected_interval: '15m', output: 'y' });
  });

  it.each([
    ['no pattern', { expected_interval: '15m' }],
    ['no expected_interval', { pattern }],
    ['an empty pattern', { pattern: {}, expected_interval: '15m' }],
    ['a pattern value that is not a string', { pattern: { connector: 1 }, expected_interval: '15m' }],
    ['a pattern that is a list', { pattern: ['connector'], expected_interval: '15m' }],
    ['a pattern that is a string', { pattern: 'connector', expected_interval: '15m' }],
    ['an interval without digits', { pattern, expected_interval: 'm' }],
    ['an interval in days', { pattern, expected_interval: '1d' }],
    ['an interval with a space', { pattern, expected_interval: '15 m' }],
    ['an interval that is a number', { pattern, expected_interval: 15 }],
    ['a list instead of an object', [{ pattern, expected_interval: '15m' }]],
  ])('answers 400 invalid heartbeat payload. to a POST with %s', async (_case, body) => {
    const res = await t.post('/api/v2/heartbeat', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidPayload);
    expect((await t.get('/api/v2/heartbeat')).body).toEqual([]);
  });

  it.each([
    ['unparsable JSON', { body: '{"pattern": ', headers: { 'content-type': 'application/json' } }],
    ['an empty body', { body: '', headers: { 'content-type': 'application/json' } }],
    ['no body at all', {}],
    ['a form-encoded body', { body: 'pattern=x&expected_interval=15m', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ['a text body', { body: JSON.stringify({ pattern, expected_interval: '15m' }), headers: { 'content-type': 'text/plain' } }],
  ])('answers 400 invalid heartbeat payload. to a POST with %s', async (_case, options) => {
    const res = await t.request('POST', '/api/v2/heartbeat', options);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidPayload);
  });

  it('answers 404 with the id as name to GET, PUT and DELETE of an unknown id', async () => {
    for (const res of [
      await t.get('/api/v2/heartbeat/nope'),
      await t.put('/api/v2/heartbeat/nope', { pattern, expected_interval: '15m' }),
      await t.delete('/api/v2/heartbeat/nope'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound('nope'));
    }
    expect((await t.get('/api/v2/heartbeat')).body).toEqual([]);
  });

  it('takes ids containing slashes, raw or URL-encoded', async () => {
    expect((await t.get('/api/v2/heartbeat/disk/host')).body).toEqual(notFound('disk/host'));
    expect((await t.delete('/api/v2/heartbeat/disk%2Fhost')).body).toEqual(notFound('disk/host'));
  });

  it('validates PUT bodies like POST bodies', async () => {
    await t.post('/api/v2/heartbeat', { pattern, expected_interval: '15m' });
    for (const body of [{ pattern }, { pattern, expected_interval: 'm' }, { pattern: { connector: null }, expected_interval: '1h' }]) {
      const res = await t.put(`/api/v2/heartbeat/${patternId}`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidPayload);
    }
    const unparsable = await t.request('PUT', `/api/v2/heartbeat/${patternId}`, { body: '{', headers: { 'content-type': 'application/json' } });
    expect(unparsable.body).toEqual(invalidPayload);
    const empty = await t.request('PUT', `/api/v2/heartbeat/${patternId}`);
    expect(empty.body).toEqual(invalidPayload);
    expect((await t.get(`/api/v2/heartbeat/${patternId}`)).body).toMatchObject({ expected_interval: '15m' });
  });

  it('moves a heartbeat to the id of its new pattern on PUT, refusing a pattern another heartbeat watches', async () => {
    await t.post('/api/v2/heartbeat', { pattern, expected_interval: '15m' });
    const moved = await t.put(`/api/v2/heartbeat/${patternId}`, { pattern: { connector: 'c3' }, expected_interval: '5m' });
    expect(moved.status).toBe(200);
    const newId = (moved.body as { description: string }).description;
    expect(newId).not.toBe(patternId);
    expect((await t.get(`/api/v2/heartbeat/${patternId}`)).status).toBe(404);
    expect((await t.get(`/api/v2/heartbeat/${newId}`)).body).toEqual({ _id: newId, pattern: { connector: 'c3' }, expected_interval: '5m' });

    await t.post('/api/v2/heartbeat', { pattern, expected_interval: '15m' });
    const clash = await t.put(`/api/v2/heartbeat/${newId}`, { pattern, expected_interval: '1m' });
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({ name: '', description: 'heartbeat pattern already exists' });
    expect((await t.get(`/api/v2/heartbeat/${newId}`)).status).toBe(200);
  });
});

describe('heartbeats when the database fails', () => {
  let t: TestKernel;
  beforeEach(async () => {
    t = await startTestKernel({ features: [eventsFeature, heartbeatsFeature], store: storeFailingOn('heartbeat') });
  });
  afterEach(() => t.stop());

  it('answers 400 database error on every route', async () => {
    const databaseError = { name: '', description: 'database error, please contact your administrator.' };
    for (const res of [
      await t.post('/api/v2/heartbeat', { pattern, expected_interval: '15m' }),
      await t.get('/api/v2/heartbeat/'),
      await t.get(`/api/v2/heartbeat/${patternId}`),
      await t.put(`/api/v2/heartbeat/${patternId}`, { pattern, expected_interval: '15m' }),
      await t.put(`/api/v2/heartbeat/${patternId}`, { pattern: { connector: 'other' }, expected_interval: '15m' }),
      await t.delete(`/api/v2/heartbeat/${patternId}`),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(databaseError);
    }
  });
});
