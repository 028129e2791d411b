import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCodes, VigieError } from '@vigie/kernel';
import { ManualClock } from '@vigie/kernel-testing';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import { errorBody, expectError, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { actionTriggers, actionsFeature } from '../src/index.js';

const pbehaviorAction = {
  _id: 'pause-nagios',
  type: 'pbehavior',
  hook: { event_patterns: [{ connector: 'nagios' }], triggers: ['create'] },
  delay: '1m',
  parameters: { name: 'pause', author: 'root', type: 'Pause', rrule: '', reason: 'maintenance', tstart: 1717243200, tstop: 1717329600 },
};

const snoozeAction = {
  _id: 'snooze-cpu',
  type: 'snooze',
  hook: { alarm_patterns: [{ v: { resource: { regex_match: '^cpu' } } }], triggers: ['create', 'stateinc'] },
  parameters: { duration: 3600, message: null, author: 'root' },
};

const start = Date.UTC(2024, 5, 1, 12);
const startSec = start / 1000;
let clock: ManualClock;
let t: TestKernel;
beforeEach(async () => {
  clock = new ManualClock(start);
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, actionsFeature], clock });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.stop();
});

const dates = (created: number, updated = created) => ({ creation_date: created, last_update_date: updated });

describe('actions round trip', () => {
  it('creates, reads, lists, replaces and deletes an action', async () => {
    const created = await t.post('/api/v2/actions', pbehaviorAction);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ _id: 'pause-nagios' });

    const one = await t.get('/api/v2/actions/pause-nagios');
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...pbehaviorAction, regex: null, fields: [], ...dates(startSec) });
    expect((await t.get('/api/v2/actions')).body).toEqual([{ ...pbehaviorAction, ...dates(startSec) }]);

    clock.advance(60_000);
    const replacement = { ...snoozeAction, _id: 'pause-nagios' };
    const updated = await t.put('/api/v2/actions/pause-nagios', replacement);
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({});
    expect((await t.get('/api/v2/actions/pause-nagios')).body).toEqual({ ...replacement, regex: null, fields: [], ...dates(startSec, startSec + 60) });

    const deleted = await t.delete('/api/v2/actions/pause-nagios');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toBe(true);
    await expectError(t.get('/api/v2/actions/pause-nagios'), 404, 'failed to get action');
    expect((await t.get('/api/v2/actions')).body).toEqual([]);
  });

  it('serves ids holding slashes, raw or URL-encoded, on GET, PUT and DELETE', async () => {
    await t.post('/api/v2/actions', { ...snoozeAction, _id: 'disk/host' });
    expect((await t.get('/api/v2/actions/disk/host')).body).toMatchObject({ _id: 'disk/host' });
    expect((await t.get('/api/v2/actions/disk%2Fhost')).body).toMatchObject({ _id: 'disk/host' });
    expect((await t.put('/api/v2/actions/disk/host', { ...snoozeAction, _id: 'disk/host', priority: 2 })).status).toBe(200);
    expect((await t.get('/api/v2/actions/disk/host')).body).toMatchObject({ priority: 2 });
    expect((await t.delete('/api/v2/actions/disk/host')).body).toBe(true);
    expect((await t.get('/api/v2/actions/disk/host')).status).toBe(404);
  });

  it('lists by id, as stored, and stores the API’s field names in default_action', async () => {
    await t.post('/api/v2/actions', snoozeAction);
    await t.post('/api/v2/actions', pbehaviorAction);
    const list = (await t.get('/api/v2/actions')).body as { _id: string }[];
    expect(list.map((a) => a._id)).toEqual(['pause-nagios', 'snooze-cpu']);
    expect(list[1]).toEqual({ ...snoozeAction, ...dates(startSec) });
    expect(await t.kernel.store.collection('default_action').findOne({ _id: 'snooze-cpu' })).toEqual({ ...snoozeAction, ...dates(startSec) });
  });

  it('accepts legacy actions matching alarm fields with a regex', async () => {
    const legacy = { _id: 'legacy', type: 'snooze', fields: ['resource', 'component'], regex: '^disk', parameters: { duration: 60 } };
    expect((await t.post('/api/v2/actions', legacy)).status).toBe(200);
    expect((await t.get('/api/v2/actions/legacy')).body).toEqual({ ...legacy, hook: null, ...dates(startSec) });
  });

  it('ignores unknown keys, as the original did, and leaves out null and empty optional values', async () => {
    const res = await t.post('/api/v2/actions', { ...snoozeAction, enabled: true, comment: 'x', delay: '', hook: { ...snoozeAction.hook, event_patterns: null } });
    expect(res.status).toBe(200);
    const stored = await t.kernel.store.collection('default_action').findOne({ _id: 'snooze-cpu' });
    expect(stored).toEqual({ ...snoozeAction, hook: { ...snoozeAction.hook, event_patterns: null }, ...dates(startSec) });
    expect((await t.post('/api/v2/actions', { _id: 'bare', type: 'ack', hook: null, regex: null, fields: null, parameters: null })).status).toBe(200);
    expect((await t.get('/api/v2/actions')).body).toContainEqual({ _id: 'bare', type: 'ack', ...dates(startSec) });
  });

  it('accepts pbehavior parameters that open the window when the action fires', async () => {
    const onTrigger = { ...pbehaviorAction, parameters: { name: 'p', type: 'Pause', reason: 'r', start_on_trigger: true, duration: { seconds: 600, unit: 's' } } };
    expect((await t.post('/api/v2/actions', onTrigger)).status).toBe(200);
  });
});

describe('action errors', () => {
  it('POST duplicate id ⇒ 400 error while creating an action', async () => {
    await t.post('/api/v2/actions', snoozeAction);
    await expectError(t.post('/api/v2/actions', snoozeAction), 400, 'error while creating an action');
  });

  it('database errors ⇒ 400 error while creating an action (POST) / error while updating an action (PUT)', async () => {
    await t.post('/api/v2/actions', snoozeAction);
    const actions = t.kernel.store.collection('default_action');
    const failure = new VigieError(ErrorCodes.StoreFailure, 'disk full');
    vi.spyOn(actions, 'insertOne').mockRejectedValue(failure);
    vi.spyOn(actions, 'replaceOne').mockRejectedValue(failure);
    await expectError(t.post('/api/v2/actions', pbehaviorAction), 400, 'error while creating an action');
    await expectError(t.put('/api/v2/actions/snooze-cpu', snoozeAction), 400, 'error while updating an action');
  });

  it('GET unknown id ⇒ 404 failed to get action', async () => {
    const res = await t.get('/api/v2/actions/nope/really');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody('failed to get action'));
  });

  it('PUT unknown id ⇒ 404 failed to get action, and creates nothing', async () => {
    await expectError(t.put('/api/v2/actions/nope', { ...snoozeAction, _id: 'nope' }), 404, 'failed to get action');
    expect((await t.get('/api/v2/actions')).body).toEqual([]);
  });

  it('PUT with another _id ⇒ 400; without _id ⇒ invalid action format', async () => {
    await t.post('/api/v2/actions', snoozeAction);
    await expectError(t.put('/api/v2/actions/snooze-cpu', { ...snoozeAction, _id: 'elsewhere' }), 400, 'error while updating an action: the _id field should not be modified');
    const { _id: _ignored, ...withoutId } = snoozeAction;
    await expectError(t.put('/api/v2/actions/snooze-cpu', withoutId), 400, 'invalid action format');
  });

  it('DELETE unknown id ⇒ 200 true, as the original', async () => {
    const res = await t.delete('/api/v2/actions/nope');
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
  });

  it('unparsable JSON ⇒ 400 Invalid JSON on POST and PUT', async () => {
    await t.post('/api/v2/actions', snoozeAction);
    for (const [method, path] of [
      ['POST', '/api/v2/actions'],
      ['PUT', '/api/v2/actions/snooze-cpu'],
    ] as const) {
      await expectError(t.request(method, path, { body: '{"_id": "x",', headers: { 'content-type': 'application/json' } }), 400, 'Invalid JSON');
    }
  });

  it('no body, an empty body, a body that is not a JSON object or another content type ⇒ nothing to insert / wrong update dict', async () => {
    await t.post('/api/v2/actions', snoozeAction);
    const bodies: Parameters<TestKernel['request']>[2][] = [
      {},
      { body: '', headers: { 'content-type': 'application/json' } },
      { json: [snoozeAction] },
      { json: 'snooze' },
      { body: 'null', headers: { 'content-type': 'application/json' } },
      { body: JSON.stringify(snoozeAction), headers: { 'content-type': 'text/plain' } },
    ];
    for (const options of bodies) {
      const post = await t.request('POST', '/api/v2/actions', options);
      expect(post.status, JSON.stringify(options)).toBe(400);
      expect(post.body).toEqual(errorBody('nothing to insert'));
      const put = await t.request('PUT', '/api/v2/actions/snooze-cpu', options);
      expect(put.status, JSON.stringify(options)).toBe(400);
      expect(put.body).toEqual(errorBody('wrong update dict'));
    }
    expect((await t.put('/api/v2/actions/snooze-cpu', {})).body).toEqual(errorBody('wrong update dict'));
    expect((await t.post('/api/v2/actions', {})).body).toEqual(errorBody('invalid action format'));
  });

  it('missing or wrong _id and type ⇒ 400 invalid action format', async () => {
    const { _id: _omitted, ...withoutId } = snoozeAction;
    const { type: _type, ...withoutType } = snoozeAction;
    for (const body of [withoutId, withoutType, { ...snoozeAction, _id: 3 }, { ...snoozeAction, _id: '' }, { ...snoozeAction, type: null }]) {
      const res = await t.post('/api/v2/actions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(errorBody('invalid action format'));
    }
  });

  it('a hook together with fields or regex ⇒ 400', async () => {
    for (const extra of [{ fields: ['resource'] }, { regex: 'disk' }]) {
      await expectError(t.post('/api/v2/actions', { ...snoozeAction, ...extra }), 400, 'Sent data has a hook and fields/regex defined at the same time');
    }
    expect((await t.post('/api/v2/actions', { ...snoozeAction, fields: [], regex: '' })).status).toBe(200);
  });

  it('a delay that is not a duration ⇒ 400 delay value is invalid', async () => {
    for (const delay of ['60', 60, '1 minute', 'm1', true]) {
      const res = await t.post('/api/v2/actions', { ...snoozeAction, delay });
      expect(res.status, String(delay)).toBe(400);
      expect(res.body).toEqual(errorBody('delay value is invalid'));
    }
  });

  it('pbehavior and snooze parameters are checked', async () => {
    const pbehaviorCases = [
      undefined,
      { name: 'p' },
      { ...pbehaviorAction.parameters, tstart: '1717243200' },
      { ...pbehaviorAction.parameters, tstop: 1.5 },
      { ...pbehaviorAction.parameters, rrule: 3 },
      { start_on_trigger: 'yes', duration: { seconds: 600, unit: 's' } },
    ];
    for (const parameters of pbehaviorCases) {
      const res = await t.post('/api/v2/actions', { ...pbehaviorAction, parameters });
      expect(res.status, JSON.stringify(parameters)).toBe(400);
      expect(res.body).toEqual(errorBody('invalid pbehavior parameters'));
    }
    for (const parameters of [undefined, {}, { duration: '1h' }, { duration: 0 }, { duration: 60, message: 1 }]) {
      const res = await t.post('/api/v2/actions', { ...snoozeAction, parameters });
      expect(res.status, JSON.stringify(parameters)).toBe(400);
      expect(res.body).toEqual(errorBody('invalid snooze parameters'));
    }
  });

  it('other shape problems ⇒ 400 invalid action format: <detail>', async () => {
    const cases: [unknown, string][] = [
      [{ ...snoozeAction, type: 'reboot' }, 'type should be one of: pbehavior, snooze, ack, ackremove, assocticket, declareticket, cancel, changestate'],
      [{ ...snoozeAction, hook: 'create' }, 'hook should be an object'],
      [{ ...snoozeAction, hook: { event_patterns: [] } }, 'the hook.triggers field is required'],
      [{ ...snoozeAction, hook: { triggers: [] } }, 'hook.triggers should list at least one trigger'],
      [{ ...snoozeAction, hook: { triggers: ['created'] } }, `hook.triggers[0] should be one of: ${actionTriggers.join(', ')}`],
      [{ ...snoozeAction, hook: { triggers: ['create'], event_pattern: [] } }, 'the following keys of hook are invalid: event_pattern'],
      [{ ...snoozeAction, hook: { triggers: ['create'], event_patterns: {} } }, 'hook.event_patterns should be a list of objects or null'],
      [{ ...snoozeAction, hook: { triggers: ['create'], entity_patterns: [null] } }, 'hook.entity_patterns[0] should be an object'],
      [{ ...snoozeAction, parameters: [] }, 'parameters should be an object'],
      [{ ...snoozeAction, priority: 1.5 }, 'priority should be an integer'],
      [{ ...snoozeAction, priority: '1' }, 'priority should be an integer'],
      [{ _id: 'l', type: 'ack', fields: 'resource' }, 'fields should be a list of strings'],
      [{ _id: 'l', type: 'ack', fields: [1] }, 'fields[0] should be a string'],
      [{ _id: 'l', type: 'ack', regex: 12 }, 'regex should be a string'],
    ];
    for (const [body, detail] of cases) {
      const res = await t.post('/api/v2/actions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(errorBody(`invalid action format: ${detail}`));
    }
    expect((await t.get('/api/v2/actions')).body).toEqual([]);
  });

  it('unbounded or invalid regular expressions ⇒ 400 invalid action format naming where they are', async () => {
    const pattern = await t.post('/api/v2/actions', { ...snoozeAction, hook: { triggers: ['create'], event_patterns: [{ output: { regex_match: '(a|aa)*$' } }] } });
    expect(pattern.status).toBe(400);
    expect(pattern.body).toEqual(
      errorBody('invalid action format: hook.event_patterns[0].output.regex_match is not an accepted regular expression: nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions'),
    );
    await expectError(t.post('/api/v2/actions', { _id: 'l', type: 'ack', fields: ['output'], regex: '(x)\\1' }), 400, 'invalid action format: regex is not an accepted regular expression: backreferences are not allowed in regular expressions');
  });

  it('validates PUT bodies like POST bodies', async () => {
    await t.post('/api/v2/actions', snoozeAction);
    await expectError(t.put('/api/v2/actions/snooze-cpu', { ...snoozeAction, delay: '90' }), 400, 'delay value is invalid');
  });
});
