import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import { errorBody, expectError, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { idleRulesFeature } from '../src/index.js';

/** The documented sample (REFERENCE §4.1). */
const sample = {
  name: 'close 3m after last event',
  type: 'last_event',
  duration: '3m',
  operation: { type: 'cancel', parameters: { author: 'idle rule' } },
  alarm_patterns: [{ v: { resource: { regex_match: 'CPU' } } }],
};

const start = Date.UTC(2024, 5, 1, 12);
let clock: ManualClock;
let t: TestKernel;
beforeEach(async () => {
  clock = new ManualClock(start);
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, idleRulesFeature], clock });
});
afterEach(() => t.stop());

describe('idle rules round trip', () => {
  it('creates, reads, lists, replaces and deletes a rule', async () => {
    const created = await t.post('/api/v2/idle-rule', sample);
    expect(created.status).toBe(200);
    const rule = created.body as Record<string, unknown>;
    expect(rule).toEqual({
      ...sample,
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      description: '',
      entity_patterns: null,
      author: 'root',
      creation_date: start / 1000,
      last_modified_date: start / 1000,
    });
    const id = rule._id as string;

    expect((await t.get(`/api/v2/idle-rule/${id}`)).body).toEqual(rule);
    expect((await t.get('/api/v2/idle-rules')).body).toEqual([rule]);

    clock.advance(90_000);
    const changed = { ...rule, name: 'renamed', duration: '10m', entity_patterns: [{ type: 'resource' }] };
    const updated = await t.put(`/api/v2/idle-rule/${id}`, changed);
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...changed, creation_date: start / 1000, last_modified_date: start / 1000 + 90 });
    expect((await t.get(`/api/v2/idle-rule/${id}`)).body).toEqual(updated.body);

    const deleted = await t.delete(`/api/v2/idle-rule/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deletedCount: 1, acknowledged: true });
    const gone = await t.get(`/api/v2/idle-rule/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(errorBody('Rule not found', id));
    expect((await t.get('/api/v2/idle-rules')).body).toEqual([]);
  });

  it('keeps a given _id, lists oldest first on both list routes, and serves ids holding a slash URL-encoded', async () => {
    expect((await t.post('/api/v2/idle-rule', { ...sample, _id: 'disk/full' })).status).toBe(200);
    clock.advance(1000);
    expect((await t.post('/api/v2/idle-rule/', { ...sample, _id: 'a-later-one', description: 'why' })).status).toBe(200);
    const ids = (res: { body: unknown }) => (res.body as { _id: string }[]).map((r) => r._id);
    expect(ids(await t.get('/api/v2/idle-rules'))).toEqual(['disk/full', 'a-later-one']);
    expect(ids(await t.get('/api/v2/idle-rule'))).toEqual(['disk/full', 'a-later-one']);
    expect((await t.get('/api/v2/idle-rule/disk%2Ffull')).body).toMatchObject({ _id: 'disk/full' });
    expect((await t.get('/api/v2/idle-rule/a-later-one')).body).toMatchObject({ description: 'why' });
  });

  it('sets author and dates itself, whatever the body says', async () => {
    const created = await t.post('/api/v2/idle-rule', { ...sample, author: 'mallory', creation_date: 1, last_modified_date: 2 });
    expect(created.body).toMatchObject({ author: 'root', creation_date: start / 1000, last_modified_date: start / 1000 });
  });

  it('defaults a null description, null patterns and absent operation parameters', async () => {
    const created = await t.post('/api/v2/idle-rule', { ...sample, description: null, alarm_patterns: null, operation: { type: 'ack' } });
    expect(created.body).toMatchObject({ description: '', alarm_patterns: null, entity_patterns: null, operation: { type: 'ack', parameters: {} } });
  });

  it('stores the rule in idle_rule with the API’s field names', async () => {
    const created = (await t.post('/api/v2/idle-rule', { ...sample, _id: 'r1' })).body;
    expect(await t.kernel.store.collection('idle_rule').findOne({ _id: 'r1' })).toEqual(created);
  });
});

describe('idle rule errors', () => {
  it('POST duplicate id ⇒ 400 failed to create idle rule: duplicate id <id>', async () => {
    await t.post('/api/v2/idle-rule', { ...sample, _id: 'twice' });
    const res = await t.post('/api/v2/idle-rule', { ...sample, _id: 'twice' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('failed to create idle rule: duplicate id twice'));
  });

  it('DELETE unknown id ⇒ 404 no idle rule with id <id>', async () => {
    const res = await t.delete('/api/v2/idle-rule/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody('no idle rule with id nope'));
  });

  it('GET unknown id ⇒ 404 with the id as name and Rule not found', async () => {
    const res = await t.get('/api/v2/idle-rule/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody('Rule not found', 'nope'));
  });

  it('PUT unknown id ⇒ 404 no idle rule with id <id>', async () => {
    const res = await t.put('/api/v2/idle-rule/nope', { ...sample, _id: 'nope' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody('no idle rule with id nope'));
  });

  it('PUT with a body _id other than the path id, or none ⇒ 400', async () => {
    await t.post('/api/v2/idle-rule', { ...sample, _id: 'kept' });
    for (const body of [{ ...sample, _id: 'other' }, sample]) {
      await expectError(t.put('/api/v2/idle-rule/kept', body), 400, 'failed to update idle rule: the _id field should not be modified');
    }
    expect((await t.get('/api/v2/idle-rule/other')).status).toBe(404);
  });

  it('POST or PUT unparsable JSON ⇒ 400 Invalid JSON', async () => {
    await t.post('/api/v2/idle-rule', { ...sample, _id: 'x' });
    for (const method of ['POST', 'PUT']) {
      const path = method === 'POST' ? '/api/v2/idle-rule' : '/api/v2/idle-rule/x';
      await expectError(t.request(method, path, { body: '{"name": ', headers: { 'content-type': 'application/json' } }), 400, 'Invalid JSON');
    }
  });

  it('an empty body, a body that is not a JSON object, or another content type ⇒ 400 invalid idle rule', async () => {
    const cases: [Parameters<TestKernel['request']>[2], string][] = [
      [{}, 'invalid idle rule: expected a dictionary, not None'],
      [{ body: '', headers: { 'content-type': 'application/json' } }, 'invalid idle rule: expected a dictionary, not None'],
      [{ json: [sample] }, 'invalid idle rule: expected a dictionary, not a list'],
      [{ json: 'rule' }, 'invalid idle rule: expected a dictionary, not a string'],
      [{ body: 'null', headers: { 'content-type': 'application/json' } }, 'invalid idle rule: expected a dictionary, not None'],
      [{ body: JSON.stringify(sample), headers: { 'content-type': 'text/plain' } }, 'invalid idle rule: expected a dictionary, not None'],
    ];
    for (const [options, description] of cases) {
      const res = await t.request('POST', '/api/v2/idle-rule', options);
      expect(res.status, JSON.stringify(options)).toBe(400);
      expect(res.body).toEqual(errorBody(description));
    }
  });

  it('unknown keys ⇒ 400 invalid idle rule: the following keys are invalid', async () => {
    await expectError(t.post('/api/v2/idle-rule', { ...sample, enabled: true, priority: 1 }), 400, 'invalid idle rule: the following keys are invalid: enabled, priority');
    const nested = await t.post('/api/v2/idle-rule', { ...sample, operation: { type: 'cancel', parameters: {}, delay: '1m' } });
    expect(nested.body).toEqual(errorBody('invalid idle rule: the following keys of operation are invalid: delay'));
  });

  it('oversized fields ⇒ 400 invalid idle rule: <field> must be at most <n> characters', async () => {
    for (const [body, description] of [
      [{ ...sample, _id: 'i'.repeat(256) }, 'invalid idle rule: _id must be at most 255 characters'],
      [{ ...sample, name: 'n'.repeat(1025) }, 'invalid idle rule: name must be at most 1024 characters'],
      [{ ...sample, description: 'd'.repeat(4097) }, 'invalid idle rule: description must be at most 4096 characters'],
      [{ ...sample, operation: { type: 'assocticket', parameters: { ticket: 't'.repeat(256) } } }, 'invalid idle rule: operation.parameters.ticket must be at most 255 characters'],
      [{ ...sample, alarm_patterns: Array.from({ length: 101 }, () => ({ v: { resource: 'x' } })) }, 'invalid idle rule: alarm_patterns must have at most 100 elements'],
    ] as const) {
      const res = await t.post('/api/v2/idle-rule', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(description));
    }
    expect((await t.post('/api/v2/idle-rule', { ...sample, operation: { type: 'assocticket', parameters: { ticket: 't'.repeat(255) } } })).status).toBe(200);
  });

  it('missing fields and wrong types ⇒ 400 invalid idle rule: <detail>', async () => {
    const { name: _name, ...withoutName } = sample;
    const { type: _type, ...withoutType } = sample;
    const { duration: _duration, ...withoutDuration } = sample;
    const { operation: _operation, ...withoutOperation } = sample;
    const cases: [unknown, string][] = [
      [withoutName, 'name'],
      [withoutType, 'the type field is required'],
      [withoutDuration, 'the duration field is required'],
      [withoutOperation, 'the operation field is required'],
      [{ ...sample, name: 3 }, 'name should be a string'],
      [{ ...sample, _id: 12 }, '_id should be a string'],
      [{ ...sample, _id: '' }, '_id should not be empty'],
      [{ ...sample, description: false }, 'description should be a string'],
      [{ ...sample, type: '' }, 'the type field is required'],
      [{ ...sample, duration: 180 }, 'duration should be a string'],
      [{ ...sample, duration: '' }, 'the duration field is required'],
      [{ ...sample, disable_during_periods: 'maintenance' }, 'disable_during_periods should be a list of strings'],
      [{ ...sample, operation: 'cancel' }, 'operation should be an object'],
      [{ ...sample, operation: {} }, 'the operation.type field is required'],
      [{ ...sample, operation: { type: 'explode' } }, 'operation.type should be one of: ack, ackremove, assocticket, cancel, changestate, declareticket, snooze, pbehavior'],
      [{ ...sample, operation: { type: 'cancel', parameters: [] } }, 'operation.parameters should be an object'],
      [{ ...sample, alarm_patterns: { v: {} } }, 'alarm_patterns should be a list of objects or null'],
      [{ ...sample, entity_patterns: ['resource'] }, 'entity_patterns[0] should be an object'],
      [{ ...sample, creation_date: 'today' }, 'creation_date should be a timestamp'],
    ];
    for (const [body, detail] of cases) {
      const res = await t.post('/api/v2/idle-rule', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(errorBody(`invalid idle rule: ${detail}`));
    }
    expect((await t.get('/api/v2/idle-rules')).body).toEqual([]);
  });

  it('invalid or unbounded regex_match expressions ⇒ 400 invalid idle rule naming where they are', async () => {
    const unsafe = await t.post('/api/v2/idle-rule', { ...sample, alarm_patterns: [{ v: { resource: { regex_match: '(a+)+$' } } }] });
    expect(unsafe.status).toBe(400);
    expect(unsafe.body).toEqual(
      errorBody('invalid idle rule: alarm_patterns[0].v.resource.regex_match is not an accepted regular expression: nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions'),
    );
    const invalid = await t.post('/api/v2/idle-rule', { ...sample, entity_patterns: [{ name: { regex_match: '[' } }] });
    expect(invalid.status).toBe(400);
    expect((invalid.body as { description: string }).description).toMatch(/^invalid idle rule: entity_patterns\[0\]\.name\.regex_match is not an accepted regular expression: invalid regular expression/);
    const go = await t.post('/api/v2/idle-rule', { ...sample, alarm_patterns: [{ v: { output: { regex_match: '(?i)^load (?P<value>\\d+)' } } }] });
    expect(go.status).toBe(200);
  });

  it('validates PUT bodies like POST bodies, after the unknown-id check', async () => {
    await t.post('/api/v2/idle-rule', { ...sample, _id: 'x' });
    await expectError(t.put('/api/v2/idle-rule/x', { ...sample, _id: 'x', duration: '' }), 400, 'invalid idle rule: the duration field is required');
    // REFERENCE §4.1: the unknown path id is checked first.
    await expectError(t.put('/api/v2/idle-rule/nope', { ...sample, _id: 'nope', duration: '' }), 404, 'no idle rule with id nope');
  });

  it('accepts what the original accepts: any non-empty type and duration, disable_during_periods', async () => {
    // The engine skips (and logs) a rule it cannot apply; the API stores it as the original did (REFERENCE §4.1).
    const res = await t.post('/api/v2/idle-rule', { ...sample, _id: 'loose', type: 'alarm', duration: '3 minutes', disable_during_periods: ['maintenance'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ _id: 'loose', type: 'alarm', duration: '3 minutes', disable_during_periods: ['maintenance'] });
    expect((await t.get('/api/v2/idle-rule/loose')).body).toMatchObject({ disable_during_periods: ['maintenance'] });
  });

  it('requires authentication', async () => {
    expect((await t.get('/api/v2/idle-rules', { auth: false })).status).toBe(401);
  });
});
