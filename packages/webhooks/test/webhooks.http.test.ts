import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCodes, VigieError } from '@vigie/kernel';
import { ManualClock } from '@vigie/kernel-testing';
import { expectError, startFeatureTest, wrongTypes, type TestKernel } from '@vigie/testkit';
import { WebhookSecretBox, type WebhookRecord } from '../src/index.js';
import { webhookFeatures } from './harness.js';

const start = Date.UTC(2025, 2, 1, 8, 0, 0);
const startSec = start / 1000;
let clock: ManualClock;
let t: TestKernel;
beforeEach(async () => {
  clock = new ManualClock(start);
  t = await startFeatureTest({ features: webhookFeatures, clock });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.stop();
});

const webhooks = '/api/v2/webhook';

/** The original's documented sample. */
const sample = {
  _id: 'declare_external_ticket',
  disable_if_active_pbehavior: false,
  hook: {
    triggers: ['create'],
    event_patterns: [{ connector: 'zabbix' }],
    entity_patterns: [{ infos: { output: { value: { regex_match: 'MemoryDisk.*' } } } }],
  },
  request: {
    method: 'PUT',
    auth: { username: 'ABC', password: 'a!(b)-c_' },
    url: '{{ $val := .Alarm.Value.Status.Value }}http://127.0.0.1:5000/{{if ((eq $val 0) or (eq $val 2) or (eq $val 4))}}even{{else}}odd{{end}}',
    headers: { 'Content-type': 'application/json' },
    payload:
      '{{ $comp := .Alarm.Value.Component }}{{ $reso := .Alarm.Value.Resource }}{{ $val := .Alarm.Value.Status.Value }}{"component": "{{$comp}}","resource": "{{$reso}}", "parity": {{if ((eq $val 0) or (eq $val 2) or (eq $val 4))}}even{{else}}odd{{end}},  "value": {{$val}} }',
  },
  retry: { count: 3, delay: 1, unit: 'm' },
  declare_ticket: { ticket_id: 'id', ticket_creation_date: 'timestamp', priority: 'priority' },
};

function withoutAuth<T extends { request: object }>(webhook: T) {
  const { auth: _auth, ...request } = webhook.request as { auth?: unknown };
  return { ...webhook, request };
}

const stored = (id: string) => t.kernel.store.collection<WebhookRecord>('webhooks').findOne({ _id: id });
const secretBox = () => t.kernel.scope('webhooks').resolve(WebhookSecretBox);
const storeFailure = () => new VigieError(ErrorCodes.StoreFailure, 'disk I/O error');
const json = { 'content-type': 'application/json' };

describe('webhooks round trip', () => {
  it('creates, reads, lists, replaces and deletes a webhook, never showing request.auth', async () => {
    const created = await t.post(webhooks, sample);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ _id: 'declare_external_ticket' });

    const shown = { ...withoutAuth(sample), enabled: true, author: 'root', creation_date: startSec, last_update_date: startSec };
    const got = await t.get(`${webhooks}/declare_external_ticket`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(shown);
    expect((await t.get(webhooks)).body).toEqual([shown]);
    expect((await t.get(`${webhooks}/`)).body).toEqual([shown]);

    clock.advance(60_000);
    const changed = { ...withoutAuth(sample), enabled: false, hook: { triggers: ['stateinc', 'resolve'] } };
    const updated = await t.put(`${webhooks}/declare_external_ticket`, changed);
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({});
    expect((await t.get(`${webhooks}/declare_external_ticket`)).body).toEqual({
      ...changed,
      author: 'root',
      creation_date: startSec,
      last_update_date: startSec + 60,
    });

    const deleted = await t.delete(`${webhooks}/declare_external_ticket`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ status: true });
    await expectError(t.get(`${webhooks}/declare_external_ticket`), 404, 'No webhook found with ID declare_external_ticket');
    expect((await t.get(webhooks)).body).toEqual([]);
  });

  it('stores the webhook as the engine reads it, with the password sealed', async () => {
    await t.post(webhooks, { ...sample, request: { ...sample.request, method: 'put' } });
    const record = await stored('declare_external_ticket');
    const sealed = record?.request.auth?.password as string;
    expect(record).toEqual({
      ...sample,
      enabled: true,
      request: { ...sample.request, auth: { username: 'ABC', password: sealed } },
      author: 'root',
      creation_date: startSec,
      last_update_date: startSec,
    });
    expect(sealed).toMatch(/^aes-256-gcm:v1:/);
    expect(JSON.stringify(record)).not.toContain('a!(b)-c_');
    expect(secretBox().open(sealed)).toBe('a!(b)-c_');
  });

  it('generates the id when absent and trims the one given', async () => {
    const generated = await t.post(webhooks, { hook: { triggers: ['create'] }, request: { method: 'GET', url: 'https://example.com/' } });
    expect((generated.body as { _id: string })._id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await t.post(webhooks, { ...sample, _id: '  padded  ' })).body).toEqual({ _id: 'padded' });
  });

  it('serves ids holding slashes and spaces, raw or URL-encoded', async () => {
    expect((await t.post(webhooks, { ...sample, _id: 'tickets/declare one' })).status).toBe(200);
    expect((await t.get(`${webhooks}/tickets/declare%20one`)).body).toMatchObject({ _id: 'tickets/declare one' });
    expect((await t.get(`${webhooks}/tickets%2Fdeclare%20one`)).body).toMatchObject({ _id: 'tickets/declare one' });
    expect((await t.put(`${webhooks}/tickets%2Fdeclare%20one`, { ...withoutAuth(sample), _id: 'tickets/declare one' })).status).toBe(200);
    expect((await t.delete(`${webhooks}/tickets/declare%20one`)).body).toEqual({ status: true });
    expect((await t.get(`${webhooks}/tickets/declare%20one`)).status).toBe(404);
  });

  it('answers status true to DELETE of an unknown id', async () => {
    const res = await t.delete(`${webhooks}/nope`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
  });
});

describe('webhook credentials on PUT', () => {
  const url = `${webhooks}/declare_external_ticket`;
  beforeEach(async () => {
    expect((await t.post(webhooks, sample)).status).toBe(200);
  });

  it('keeps the stored credentials when request.auth is left out (a GET then PUT round trip)', async () => {
    const before = await stored('declare_external_ticket');
    const got = (await t.get(url)).body as object;
    expect((await t.put(url, got)).status).toBe(200);
    expect((await stored('declare_external_ticket'))?.request.auth).toEqual(before?.request.auth);
  });

  it('keeps the stored password when only the username is sent', async () => {
    await t.put(url, { ...sample, request: { ...sample.request, auth: { username: 'XYZ' } } });
    const auth = (await stored('declare_external_ticket'))?.request.auth;
    expect(auth?.username).toBe('XYZ');
    expect(secretBox().open(auth?.password as string)).toBe('a!(b)-c_');
  });

  it('replaces the password when one is sent, and removes the credentials on null', async () => {
    await t.put(url, { ...sample, request: { ...sample.request, auth: { username: 'ABC', password: 'new secret' } } });
    expect(secretBox().open((await stored('declare_external_ticket'))?.request.auth?.password as string)).toBe('new secret');
    await t.put(url, { ...sample, request: { ...sample.request, auth: null } });
    expect((await stored('declare_external_ticket'))?.request).not.toHaveProperty('auth');
  });
});

describe('webhook errors', () => {
  it('answers Invalid JSON to bodies that do not parse', async () => {
    await expectError(t.request('POST', webhooks, { body: '{"hook": ', headers: json }), 400, 'Invalid JSON');
    await t.post(webhooks, sample);
    await expectError(t.request('PUT', `${webhooks}/declare_external_ticket`, { body: '{', headers: json }), 400, 'Invalid JSON');
  });

  it('answers empty bodies and other content types clearly', async () => {
    await expectError(t.request('POST', webhooks, { headers: json }), 400, 'Nothing to create');
    await t.post(webhooks, sample);
    await expectError(t.request('PUT', `${webhooks}/declare_external_ticket`, { headers: json }), 400, 'Nothing to update');
    // The original read a body only when sent as JSON: another content type is no body at all.
    await expectError(t.request('POST', webhooks, { body: JSON.stringify(sample), headers: { 'content-type': 'text/plain' } }), 400, 'Nothing to create');
  });

  it('refuses a duplicate id', async () => {
    await t.post(webhooks, sample);
    await expectError(t.post(webhooks, sample), 400, 'Error while creating an webhook');
  });

  it('answers 404 to GET and PUT of an unknown id', async () => {
    await expectError(t.get(`${webhooks}/nope`), 404, 'No webhook found with ID nope');
    await expectError(t.put(`${webhooks}/nope`, withoutAuth(sample)), 404, 'No webhook found with ID nope');
  });

  it('refuses a PUT that changes the _id', async () => {
    await t.post(webhooks, sample);
    await expectError(t.put(`${webhooks}/declare_external_ticket`, { ...sample, _id: 'other' }), 400, 'the _id field should not be modified');
    expect((await t.put(`${webhooks}/declare_external_ticket`, { ...sample, _id: ' declare_external_ticket ' })).status).toBe(200);
  });

  it('words database errors as the spec does', async () => {
    const collection = t.kernel.store.collection('webhooks');
    vi.spyOn(collection, 'insertOne').mockRejectedValueOnce(storeFailure());
    await expectError(t.post(webhooks, sample), 400, 'Error while creating an webhook');
    await t.post(webhooks, sample);
    vi.spyOn(collection, 'findOne').mockRejectedValueOnce(storeFailure());
    await expectError(t.get(`${webhooks}/declare_external_ticket`), 400, 'Can not retrieve the webhook data from database, contact your administrator.');
    vi.spyOn(collection, 'deleteOne').mockRejectedValueOnce(storeFailure());
    await expectError(t.delete(`${webhooks}/declare_external_ticket`), 400, 'Can not retrieve the webhook data from database, contact your administrator.');
    vi.spyOn(collection, 'find').mockRejectedValueOnce(storeFailure());
    await expectError(t.get(webhooks), 400, 'Can not retrieve the webhooks list from database, contact your administrator.');
    vi.spyOn(collection, 'replaceOne').mockRejectedValueOnce(storeFailure());
    await expectError(t.put(`${webhooks}/declare_external_ticket`, sample), 400, 'Error while updating an webhook');
    expect((await t.get(`${webhooks}/declare_external_ticket`)).status).toBe(200);
  });

  it('refuses templates that do not parse, with the template error and its line and column', async () => {
    const request = sample.request;
    await expectError(t.post(webhooks, { ...sample, request: { ...request, url: 'http://x/{{ .Alarm.Value.Component }' } }), 400, /^invalid webhook: request\.url: template: 1:\d+: \S/);
    await expectError(t.post(webhooks, { ...sample, request: { ...request, payload: '{\n"a": "{{ if }}"}' } }), 400, /^invalid webhook: request\.payload: template: 2:\d+: \S/);
    await expectError(t.post(webhooks, { ...sample, request: { ...request, headers: { 'X-Id': '{{ nosuchfunc 1 }}' } } }), 400, /^invalid webhook: request\.headers\.X-Id: template: 1:\d+: .*nosuchfunc/);
    expect((await t.get(webhooks)).body).toEqual([]);
  });

  it('names the faulty field of an invalid webhook', async () => {
    const request = sample.request;
    const cases: [unknown, string][] = [
      [{ ...sample, retry: { count: -1, delay: 1, unit: 'm' } }, 'retry.count should be a non-negative integer'],
      [{ ...sample, retry: { count: 1, delay: 1.5, unit: 'm' } }, 'retry.delay should be a non-negative integer'],
      [{ ...sample, retry: { count: 1, delay: '1', unit: 'm' } }, 'retry.delay should be a non-negative integer'],
      [{ ...sample, retry: { count: 1, delay: 1, unit: 'd' } }, 'retry.unit should be one of s, m, h'],
      [{ ...sample, retry: 5 }, 'retry should be an object'],
      [{ ...sample, request: { ...request, method: 'FETCH' } }, 'request.method should be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'],
      [{ ...sample, request: { ...request, method: 1 } }, 'request.method should be a string'],
      [{ ...sample, request: { ...request, url: 'not a url' } }, 'request.url should be an absolute http or https URL (or a template)'],
      [{ ...sample, request: { ...request, url: 'ftp://host/file' } }, 'request.url should be an absolute http or https URL (or a template)'],
      [{ ...sample, request: { method: 'GET' } }, 'request.url is required'],
      [{ ...sample, request: { url: 'https://example.com/' } }, 'request.method is required'],
      [{ ...sample, request: { ...request, headers: { 'Bad Name': 'x' } } }, 'request.headers holds an invalid header name "Bad Name"'],
      [{ ...sample, request: { ...request, headers: { 'X-Count': 3 } } }, 'request.headers.X-Count should be a string'],
      [{ ...sample, request: { ...request, payload: { a: 1 } } }, 'request.payload should be a string'],
      [{ ...sample, request: { ...request, auth: { password: 'p' } } }, 'request.auth.username is required'],
      [{ ...sample, request: { ...request, timeout: 5 } }, 'request holds unknown keys: timeout'],
      [{ ...sample, hook: { triggers: ['create', 'explode'] } }, 'hook.triggers[1] should be one of ack, ackremove, assocticket, cancel, changestate, comment, create, declareticket, declareticketwebhook, done, metaalarm, metaalarmupdated, resolve, snooze, statedec, stateinc, statusdec, statusinc, uncancel, unsnooze'],
      [{ ...sample, hook: { triggers: [] } }, 'hook.triggers should name at least one trigger'],
      [{ ...sample, hook: { triggers: 'create' } }, 'hook.triggers should be a list of trigger names'],
      [{ ...sample, hook: { triggers: ['resolve'], event_patterns: [{ connector: 'x' }] } }, 'hook.event_patterns cannot be used with the triggers resolve: they are not raised by an event'],
      [{ ...sample, hook: { triggers: ['create'], alarm_patterns: {} } }, 'hook.alarm_patterns should be a list of objects or null'],
      [{ request }, 'hook is required'],
      [{ hook: sample.hook }, 'request is required'],
      [{ ...sample, enabled: 'yes' }, 'enabled should be a boolean'],
      [{ ...sample, disable_if_active_pbehavior: 0 }, 'disable_if_active_pbehavior should be a boolean'],
      [{ ...sample, declare_ticket: { ticket_id: 3 } }, 'declare_ticket.ticket_id should be a string naming a field of the response'],
      [{ ...sample, declare_ticket: { ticket_id: 'id', regexp: 'yes' } }, 'declare_ticket.regexp should be a boolean'],
      [{ ...sample, declare_ticket: { ticket_id: '(a+)+', regexp: true } }, 'declare_ticket.ticket_id is not an accepted regular expression'],
      [{ ...sample, _id: '  ' }, '_id should not be empty'],
      [{ ...sample, _id: 5 }, '_id should be a string'],
      [{ ...sample, colour: 'red' }, 'the following keys are invalid: colour'],
      [[sample], 'expected a JSON object'],
      [null, 'expected a JSON object'],
    ];
    for (const [body, detail] of cases) {
      const res = await t.post(webhooks, body);
      expect(res.status, detail).toBe(400);
      expect((res.body as { description: string }).description, detail).toContain(`invalid webhook: ${detail}`);
    }
    expect((await t.get(webhooks)).body).toEqual([]);
  });

  it('checks PUT bodies as POST does', async () => {
    await t.post(webhooks, sample);
    await expectError(t.put(`${webhooks}/declare_external_ticket`, { ...sample, retry: { unit: 'y' } }), 400, 'invalid webhook: retry.unit should be one of s, m, h');
    await expectError(t.put(`${webhooks}/nope`, { hook: sample.hook }), 400, 'invalid webhook: request is required');
  });
});

describe('webhook bodies with fields of the wrong type', () => {
  it('answers each with a 4xx, never a 500', async () => {
    expect((await t.post(webhooks, sample)).status).toBe(200);
    const full = { ...sample, enabled: true, hook: { ...sample.hook, alarm_patterns: [{}] }, declare_ticket: { ...sample.declare_ticket, regexp: false } };
    for (const body of wrongTypes(full)) {
      for (const res of [await t.post(webhooks, body), await t.put(`${webhooks}/declare_external_ticket`, body)]) {
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      }
    }
  });
});
