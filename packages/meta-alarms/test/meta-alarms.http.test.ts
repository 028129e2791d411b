import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { expectError, startFeatureTest, wrongTypes, type TestKernel } from '@vigie/testkit';
import { metaAlarmsFeature } from '../src/index.js';

let t: TestKernel;
beforeEach(async () => {
  // The correlation engine of the feature needs the pipeline and the alarms.
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, metaAlarmsFeature] });
});
afterEach(() => t.stop());

const rules = '/api/v2/metaalarmrule';

/** The spec's complex rule. */
const complexRule = {
  _id: 'metarule1',
  name: 'Test groupement de type complexe',
  type: 'complex',
  config: {
    time_interval: 10,
    threshold_count: 3,
    alarm_patterns: [{ v: { resource: { regex_match: 'meta_complex' }, state: { val: 3 } } }],
  },
};

const rawPost = (body: string, contentType = 'application/json') => t.request('POST', rules, { body, headers: { 'content-type': contentType } });

describe('meta-alarm rules round trip', () => {
  it('creates, reads, lists, replaces and deletes a rule', async () => {
    const created = await t.post(rules, complexRule);
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(created.text).toBe('metarule1');

    const expected = { ...complexRule, patterns: null };
    const got = await t.get(`${rules}/metarule1`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(expected);
    expect((await t.get(rules)).body).toEqual([expected]);
    expect((await t.get(`${rules}/`)).body).toEqual([expected]);

    const replacement = { _id: 'metarule1', name: 'Relation', type: 'relation' };
    const updated = await t.put(`${rules}/metarule1`, replacement);
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...replacement, patterns: null, config: null });
    expect((await t.get(`${rules}/metarule1`)).body).toEqual({ ...replacement, patterns: null, config: null });

    const deleted = await t.delete(`${rules}/metarule1`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ acknowledged: true, deletedCount: 1 });

    const gone = await t.get(`${rules}/metarule1`);
    expect(gone.status).toBe(200);
    expect(gone.headers.get('content-type')).toMatch(/^application\/json/);
    expect(gone.text).toBe('null');
    expect((await t.get(rules)).body).toEqual([]);
  });

  it('generates a uuid when _id is absent or empty', async () => {
    for (const body of [{ name: 'r', type: 'relation' }, { _id: '', name: 'r', type: 'relation' }]) {
      const res = await t.post(rules, body);
      expect(res.status).toBe(200);
      expect(res.text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect((await t.get(rules)).body).toHaveLength(2);
  });

  it('stores the rule in the shape the correlation engine reads', async () => {
    await t.post(rules, { ...complexRule, auto_resolve: true, output_template: '{{ .Count }} alarms' });
    const stored = await t.kernel.store.collection('meta_alarm_rules').findOne({ _id: 'metarule1' });
    expect(stored).toEqual({ ...complexRule, patterns: null, auto_resolve: true, output_template: '{{ .Count }} alarms' });
    expect((await t.get(`${rules}/metarule1`)).body).toMatchObject({ auto_resolve: true, output_template: '{{ .Count }} alarms' });
  });

  it('accepts patterns and config sent as JSON text and returns them as objects', async () => {
    const patterns = { entity_patterns: [{ type: 'resource' }] };
    const res = await t.post(rules, { _id: 'text', name: 'n', type: 'attribute', patterns: JSON.stringify(patterns), config: JSON.stringify({ alarm_patterns: [{}] }) });
    expect(res.status).toBe(200);
    expect((await t.get(`${rules}/text`)).body).toEqual({ _id: 'text', name: 'n', type: 'attribute', patterns, config: { alarm_patterns: [{}] } });
  });

  it('ignores keys a rule does not have, as the original drops them', async () => {
    const res = await t.post(rules, { _id: 'extra', name: 'n', type: 'relation', colour: 'blue', author: 'me' });
    expect(res.status).toBe(200);
    expect((await t.get(`${rules}/extra`)).body).toEqual({ _id: 'extra', name: 'n', type: 'relation', patterns: null, config: null });
    expect(await t.kernel.store.collection('meta_alarm_rules').findOne({ _id: 'extra' })).not.toHaveProperty('colour');
  });
});

describe('meta-alarm POST errors', () => {
  it('answers a body that is not JSON with Malformed JSON and the parser detail', async () => {
    await expectError(rawPost('{"name": "x",'), 400, /^Malformed JSON: .+/);
  });

  it('refuses a duplicate _id', async () => {
    await t.post(rules, complexRule);
    await expectError(t.post(rules, complexRule), 400, 'Trying to insert MetaAlarmRule with already existing _id');
  });

  it('refuses an unknown type', async () => {
    await expectError(t.post(rules, { name: 'n', type: 'simple' }), 400, 'rule type invalid value simple');
    await expectError(t.post(rules, { name: 'n', type: 42 }), 400, 'rule type invalid value 42');
  });

  it('reports threshold_rate with attribute as the spec does: time_interval is checked first', async () => {
    const body = { name: 'n', type: 'attribute', config: { threshold_rate: 0.5, time_interval: 10 } };
    await expectError(t.post(rules, body), 400, 'invalid rule_type attribute with config time_interval');
    // The spec's error table: threshold_rate alone with attribute is worded with time_interval too.
    await expectError(t.post(rules, { name: 'n', type: 'attribute', config: { threshold_rate: 0.5 } }), 400, 'invalid rule_type attribute with config time_interval');
    await expectError(t.post(rules, { name: 'n', type: 'timebased', config: { threshold_rate: 0.5 } }), 400, 'invalid rule_type timebased with config threshold_rate');
  });

  it('checks config keys in the fixed order, whatever the body order', async () => {
    const config = { event_patterns: [], threshold_count: 2, attribute_patterns: [] };
    await expectError(t.post(rules, { name: 'n', type: 'timebased', config }), 400, 'invalid rule_type timebased with config attribute_patterns');
    await expectError(t.post(rules, { name: 'n', type: 'relation', config: { time_interval: 5 } }), 400, 'invalid rule_type relation with config time_interval');
    await expectError(t.post(rules, { name: 'n', type: 'attribute', config: { total_entity_patterns: [] } }), 400, 'invalid rule_type attribute with config total_entity_patterns');
  });

  it('requires name and type', async () => {
    const required = "The fields 'name' and 'type' are required.";
    for (const body of [{ type: 'relation' }, { name: 'n' }, { name: null, type: 'relation' }, { name: '', type: 'relation' }, {}, [], 'text']) {
      await expectError(t.post(rules, body), 400, required);
    }
    await expectError(t.request('POST', rules, { headers: { 'content-type': 'application/json' } }), 400, required);
    await expectError(rawPost(''), 400, required);
  });

  it('refuses fields of the wrong type with a clear message', async () => {
    await expectError(t.post(rules, { name: 42, type: 'relation' }), 400, 'name has invalid value: 42');
    await expectError(t.post(rules, { _id: 7, name: 'n', type: 'relation' }), 400, '_id has invalid value: 7');
    await expectError(t.post(rules, { name: 'n', type: 'complex', config: [1] }), 400, 'invalid config value type [1]');
    await expectError(t.post(rules, { name: 'n', type: 'complex', config: '{' }), 400, "Can't decode rule config parameter: {");
    await expectError(t.post(rules, { name: 'n', type: 'complex', patterns: 'nope' }), 400, "Can't decode rule patterns parameter: nope");
    await expectError(t.post(rules, { name: 'n', type: 'complex', patterns: [1] }), 400, 'patterns should be an object or null');
    await expectError(t.post(rules, { name: 'n', type: 'complex', config: { time_interval: '10' } }), 400, 'config.time_interval should be a non-negative integer (seconds)');
    await expectError(t.post(rules, { name: 'n', type: 'complex', config: { threshold_count: 0 } }), 400, 'config.threshold_count should be a positive integer');
    await expectError(t.post(rules, { name: 'n', type: 'complex', config: { threshold_rate: 2 } }), 400, 'config.threshold_rate should be a number greater than 0 and at most 1');
    await expectError(t.post(rules, { name: 'n', type: 'complex', config: { alarm_patterns: {} } }), 400, 'config.alarm_patterns should be a list of objects or null');
    await expectError(t.post(rules, { name: 'n', type: 'relation', auto_resolve: 'yes' }), 400, 'invalid auto_resolve value type yes');
    await expectError(t.post(rules, { name: 'n', type: 'relation', output_template: 3 }), 400, 'invalid output_template value type 3');
  });

  it('refuses configs the engine could not apply', async () => {
    await expectError(t.post(rules, { name: 'n', type: 'complex', config: { treshold_count: 2 } }), 400, 'config holds unknown keys: treshold_count');
    await expectError(
      t.post(rules, { name: 'n', type: 'complex', config: { threshold_count: 2, threshold_rate: 0.5 } }),
      400,
      'config.threshold_count and config.threshold_rate are mutually exclusive',
    );
    await expectError(
      t.post(rules, { name: 'n', type: 'complex', config: { alarm_patterns: [{ v: { output: { regex_match: '(a+)+$' } } }] } }),
      400,
      /^config\.alarm_patterns\[0\]\.v\.output\.regex_match is not an accepted regular expression/,
    );
    await expectError(t.post(rules, { name: 'n', type: 'relation', patterns: { alarm_patterns: [] } }), 400, 'patterns holds unknown keys: alarm_patterns');
  });

  it('refuses an output_template that does not parse, with its line and column', async () => {
    await expectError(t.post(rules, { name: 'n', type: 'relation', output_template: 'ok\n{{ .Count }' }), 400, /^invalid output_template: template: 2:\d+: \S/);
  });

  it('reads a body sent with another content type as no body, as the original did', async () => {
    const res = await rawPost(JSON.stringify(complexRule), 'text/plain');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: "The fields 'name' and 'type' are required." });
  });
});

describe('meta-alarm GET and DELETE of unknown ids', () => {
  it('answers 200 null to GET', async () => {
    const res = await t.get(`${rules}/nope`);
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(res.text).toBe('null');
  });

  it('answers deletedCount 0 to DELETE', async () => {
    const res = await t.delete(`${rules}/nope`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true, deletedCount: 0 });
  });
});

describe('meta-alarm PUT (not in the spec)', () => {
  beforeEach(async () => {
    expect((await t.post(rules, complexRule)).status).toBe(200);
  });

  it('replaces the whole rule: keys left out are gone', async () => {
    const res = await t.put(`${rules}/metarule1`, { name: 'renamed', type: 'complex', config: { threshold_count: 5 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ _id: 'metarule1', name: 'renamed', type: 'complex', patterns: null, config: { threshold_count: 5 } });
    expect(await t.kernel.store.collection('meta_alarm_rules').findOne({ _id: 'metarule1' })).toEqual(res.body);
  });

  it('answers 404 to an unknown id', async () => {
    await expectError(t.put(`${rules}/nope`, { name: 'n', type: 'relation' }), 404, 'Rule ID=nope not found');
    expect((await t.get(`${rules}/nope`)).body).toBeNull();
  });

  it('refuses a body _id other than the path id', async () => {
    await expectError(t.put(`${rules}/metarule1`, { _id: 'other', name: 'n', type: 'relation' }), 400, 'the _id field should not be modified');
    expect((await t.get(`${rules}/other`)).body).toBeNull();
  });

  it('checks the body as POST does', async () => {
    await expectError(t.put(`${rules}/metarule1`, { name: 'n', type: 'attribute', config: { threshold_rate: 0.5, time_interval: 10 } }), 400, 'invalid rule_type attribute with config time_interval');
    await expectError(t.put(`${rules}/metarule1`, { name: 'n' }), 400, "The fields 'name' and 'type' are required.");
    await expectError(t.request('PUT', `${rules}/metarule1`, { body: '{', headers: { 'content-type': 'application/json' } }), 400, /^Malformed JSON/);
    await expectError(t.request('PUT', `${rules}/metarule1`, { headers: { 'content-type': 'application/json' } }), 400, "The fields 'name' and 'type' are required.");
    expect((await t.get(`${rules}/metarule1`)).body).toMatchObject({ name: complexRule.name });
  });
});

describe('meta-alarm bodies with fields of the wrong type', () => {
  it('answers each with a 4xx, never a 500', async () => {
    expect((await t.post(rules, complexRule)).status).toBe(200);
    for (const body of wrongTypes({ ...complexRule, patterns: { entity_patterns: [{}] }, auto_resolve: true, output_template: 'x' })) {
      for (const res of [await t.post(rules, body), await t.put(`${rules}/metarule1`, body)]) {
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      }
    }
  });
});
