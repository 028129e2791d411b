import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { errorBody, expectError, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { broadcastFeature } from '../src/index.js';

const now = Date.UTC(2024, 5, 1, 12, 0, 0);
const nowSec = now / 1000;
const message = { message: 'Maintenance tonight', color: '#ff8800', start: nowSec - 60, end: nowSec + 3600 };
const uuid4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('broadcast messages over HTTP', () => {
  let t: TestKernel;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock(now);
    t = await startFeatureTest({ features: [broadcastFeature], clock });
  });
  afterEach(() => t.stop());

  async function create(body: object): Promise<string> {
    const res = await t.post('/api/v2/broadcast-message', body);
    expect(res.status).toBe(200);
    return (res.body as { _id: string })._id;
  }

  it('creates, reads, lists, replaces and deletes a message', async () => {
    const created = await t.post('/api/v2/broadcast-message', message);
    expect(created.status).toBe(200);
    const id = (created.body as { _id: string })._id;
    expect(created.body).toEqual({ _id: expect.stringMatching(uuid4) });

    const one = await t.get(`/api/v2/broadcast-message/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ _id: id, ...message });
    expect((await t.get('/api/v2/broadcast-message')).body).toEqual([{ _id: id, ...message }]);

    const replacement = { message: 'Done', color: '#0f0', start: nowSec, end: nowSec + 60 };
    const replaced = await t.put(`/api/v2/broadcast-message/${id}`, replacement);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({});
    expect((await t.get(`/api/v2/broadcast-message/${id}`)).body).toEqual({ _id: id, ...replacement });

    const deleted = await t.delete(`/api/v2/broadcast-message/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ status: true });

    await expectError(t.get(`/api/v2/broadcast-message/${id}`), 404, `No message found with ID ${id}`);
    expect((await t.get('/api/v2/broadcast-message')).body).toEqual([]);
  });

  it('stores exactly the message fields', async () => {
    const id = await create(message);
    expect(await t.kernel.store.collection('broadcast_message').find({})).toEqual([{ _id: id, ...message }]);
  });

  it('lists as active the messages whose window holds the injected clock, both ends inclusive', async () => {
    const past = await create({ ...message, message: 'past', start: nowSec - 100, end: nowSec - 1 });
    const endsNow = await create({ ...message, message: 'ends now', start: nowSec - 50, end: nowSec });
    const startsNow = await create({ ...message, message: 'starts now', start: nowSec, end: nowSec + 100 });
    const future = await create({ ...message, message: 'future', start: nowSec + 1, end: nowSec + 100 });

    const ids = async () => ((await t.get('/api/v2/broadcast-message/active')).body as { _id: string }[]).map((m) => m._id);
    expect(await ids()).toEqual([endsNow, startsNow]);
    clock.advance(1000);
    expect(await ids()).toEqual([startsNow, future]);
    clock.set((nowSec - 101) * 1000);
    expect(await ids()).toEqual([]);
    clock.set((nowSec - 1) * 1000);
    expect(await ids()).toEqual([past, endsNow]);
  });

  it('serves /active before /<id> and requires authentication there too', async () => {
    const active = await t.get('/api/v2/broadcast-message/active');
    expect(active.status).toBe(200);
    expect(active.body).toEqual([]);
    expect((await t.get('/api/v2/broadcast-message/active', { auth: false })).status).toBe(401);
  });

  it('answers 404 No message found with ID <id> to an unknown id', async () => {
    await expectError(t.get('/api/v2/broadcast-message/nope'), 404, 'No message found with ID nope');
  });

  it('accepts 3- and 6-digit hexadecimal colours in either case', async () => {
    for (const color of ['#abc', '#ABC', '#a1B2c3']) await create({ ...message, color });
  });

  it('accepts an empty message text, as the original does', async () => {
    await create({ ...message, message: '' });
  });

  it.each([
    ['an _id', { ...message, _id: 'mine' }],
    ['an unknown key', { ...message, author: 'me' }],
    ['no message', { color: '#fff', start: 1, end: 2 }],
    ['no end', { message: 'x', color: '#fff', start: 1 }],
    ['a message that is not a string', { ...message, message: 42 }],
    ['a colour name', { ...message, color: 'red' }],
    ['a colour without #', { ...message, color: 'ff0000' }],
    ['a 5-digit colour', { ...message, color: '#12345' }],
    ['a colour with non-hex digits', { ...message, color: '#ggg' }],
    ['a start given as a string', { ...message, start: String(nowSec) }],
    ['a fractional end', { ...message, end: nowSec + 0.5 }],
    ['a null start', { ...message, start: null }],
  ])('answers 400 Invalid payload to a POST or PUT with %s', async (_case, body) => {
    await expectError(t.post('/api/v2/broadcast-message', body), 400, 'Invalid payload');

    const id = await create(message);
    await expectError(t.put(`/api/v2/broadcast-message/${id}`, body), 400, 'Invalid payload');
    expect((await t.get('/api/v2/broadcast-message')).body).toEqual([{ _id: id, ...message }]);
  });

  it('answers 400 Invalid JSON to an unparsable body', async () => {
    const bad = { body: '{"message": "x",', headers: { 'content-type': 'application/json' } };
    await expectError(t.request('POST', '/api/v2/broadcast-message', bad), 400, 'Invalid JSON');
    const replaced = await t.request('PUT', '/api/v2/broadcast-message/some-id', bad);
    expect(replaced.status).toBe(400);
    expect(replaced.body).toEqual(errorBody('Invalid JSON'));
  });

  it.each([
    ['no body', {}],
    ['an empty JSON body', { body: '', headers: { 'content-type': 'application/json' } }],
    ['a JSON list', { json: [message] }],
    ['JSON null', { body: 'null', headers: { 'content-type': 'application/json' } }],
    ['a text body', { body: JSON.stringify(message), headers: { 'content-type': 'text/plain' } }],
    ['a form body', { body: 'message=x&color=%23fff&start=1&end=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ])('answers 400 Nothing to create / Nothing to update to %s, as the original', async (_case, options) => {
    await expectError(t.request('POST', '/api/v2/broadcast-message', options), 400, 'Nothing to create');
    const replaced = await t.request('PUT', '/api/v2/broadcast-message/some-id', options);
    expect(replaced.status).toBe(400);
    expect(replaced.body).toEqual(errorBody('Nothing to update'));
  });

  it('answers {} to a PUT and {status: true} to a DELETE of an unknown id, creating nothing', async () => {
    const replaced = await t.put('/api/v2/broadcast-message/nope', message);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({});
    const deleted = await t.delete('/api/v2/broadcast-message/nope');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ status: true });
    expect((await t.get('/api/v2/broadcast-message')).body).toEqual([]);
  });

  it('lists messages by start, then id', async () => {
    const later = await create({ ...message, start: nowSec + 10 });
    const earlier = await create({ ...message, start: nowSec - 10 });
    expect(((await t.get('/api/v2/broadcast-message')).body as { _id: string }[]).map((m) => m._id)).toEqual([earlier, later]);
  });
});
