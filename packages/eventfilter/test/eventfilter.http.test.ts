import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, expectError, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { eventFilterFeature } from '../src/index.js';

const enrichment = {
  type: 'enrichment',
  pattern: { component: 'comp', output: { regex_match: '^load (?P<value>\\d+)' } },
  actions: [{ type: 'set_field', name: 'State', value: 3 }],
  priority: 10,
  on_success: 'pass',
  on_failure: 'pass',
};
const drop = { type: 'drop', pattern: { connector: 'spam' }, priority: 1 };

const rules = '/api/v2/eventfilter/rules';
let t: TestKernel;
beforeEach(async () => {
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, eventFilterFeature] });
});
afterEach(() => t.stop());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function create(rule: unknown): Promise<string> {
  const res = await t.post(rules, rule);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { _id: string })._id;
}

describe('event-filter rules round trip', () => {
  it('creates, reads, lists, replaces and deletes a rule', async () => {
    const created = await t.post(rules, enrichment);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ _id: expect.stringMatching(uuid) });
    const id = (created.body as { _id: string })._id;

    const one = await t.get(`${rules}/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ _id: id, ...enrichment });
    expect((await t.get(rules)).body).toEqual([{ _id: id, ...enrichment }]);

    const replacement = { ...enrichment, description: 'raise comp', enabled: false, actions: [{ type: 'set_field', name: 'Output', value: 'x' }] };
    const updated = await t.put(`${rules}/${id}`, replacement);
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({});
    expect((await t.get(`${rules}/${id}`)).body).toEqual({ _id: id, ...replacement });
    expect((await t.put(`${rules}/${id}`, { _id: id, ...drop })).status).toBe(200);
    expect((await t.get(`${rules}/${id}`)).body).toEqual({ _id: id, ...drop });

    const deleted = await t.delete(`${rules}/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    await expectError(t.get(`${rules}/${id}`), 404, `No rule with id: ${id}`);
    expect((await t.get(rules)).body).toEqual([]);
  });

  it('shows a drop rule with only what was sent, and stores it so in eventfilter', async () => {
    const id = await create(drop);
    expect((await t.get(`${rules}/${id}`)).body).toEqual({ _id: id, ...drop });
    expect(await t.kernel.store.collection('eventfilter').findOne({ _id: id })).toEqual({ _id: id, ...drop });
  });

  it('accepts the original’s patterns list as well as the spec’s pattern object', async () => {
    const listed = { type: 'break', patterns: [{ connector: 'a' }, { connector: 'b', resource: { regex_match: 'disk' } }] };
    const id = await create(listed);
    expect((await t.get(`${rules}/${id}`)).body).toEqual({ _id: id, ...listed });
    expect(await create({ type: 'drop', patterns: null })).toMatch(uuid);
    expect(await create({ type: 'drop', pattern: null })).toMatch(uuid);
  });

  it('keeps an _id that is a non-empty string without spaces, generates one otherwise', async () => {
    expect(await create({ ...drop, _id: 'drop-spam' })).toBe('drop-spam');
    expect((await t.get(`${rules}/drop-spam`)).body).toEqual({ _id: 'drop-spam', ...drop });
    for (const _id of ['with space', '', 42, null]) expect(await create({ ...drop, _id })).toMatch(uuid);
    expect(await create({ ...drop, _id: 'a/b' })).toBe('a/b');
    expect((await t.get(`${rules}/a%2Fb`)).body).toMatchObject({ _id: 'a/b' });
  });

  it('lists rules in the order the pipeline applies them: priority (0 when absent), then id', async () => {
    await create({ ...drop, _id: 'p5', priority: 5 });
    await create({ type: 'break', _id: 'none' });
    await create({ ...drop, _id: 'minus', priority: -1 });
    await create({ ...drop, _id: 'p0', priority: 0 });
    const ids = ((await t.get(rules)).body as { _id: string }[]).map((r) => r._id);
    expect(ids).toEqual(['minus', 'none', 'p0', 'p5']);
  });
});

describe('event-filter errors', () => {
  it('POST duplicate _id ⇒ 400 Operation failure while doing insert with the duplicate key detail', async () => {
    await create({ ...drop, _id: 'twice' });
    const res = await t.post(rules, { ...drop, _id: 'twice' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('Operation failure while doing insert: E11000 duplicate key error collection: eventfilter index: _id_ dup key: { _id: "twice" }'));
  });

  it('DELETE unknown id ⇒ 400 No rule with id: <id>', async () => {
    await expectError(t.delete(`${rules}/nope`), 400, 'No rule with id: nope');
  });

  it('GET and PUT unknown id ⇒ 404 No rule with id: <id>', async () => {
    const get = await t.get(`${rules}/nope`);
    expect(get.status).toBe(404);
    expect(get.body).toEqual(errorBody('No rule with id: nope'));
    await expectError(t.put(`${rules}/nope`, drop), 404, 'No rule with id: nope');
    expect((await t.get(rules)).body).toEqual([]);
  });

  it('PUT changing the _id ⇒ 400 The _id field should not be modified.', async () => {
    await create({ ...drop, _id: 'kept' });
    for (const _id of ['other', 42, null]) {
      await expectError(t.put(`${rules}/kept`, { ...drop, _id }), 400, 'The _id field should not be modified.');
    }
  });

  it('unparsable JSON ⇒ 400 Malformed JSON followed by the parser detail, on POST and PUT', async () => {
    await create({ ...drop, _id: 'x' });
    for (const [method, path] of [
      ['POST', rules],
      ['PUT', `${rules}/x`],
    ] as const) {
      const res = await t.request(method, path, { body: '{"type": "drop",', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect((res.body as { description: string }).description).toMatch(/^Malformed JSON: \S/);
    }
  });

  it('an absent or empty body, or one not sent as JSON ⇒ 400 Empty request', async () => {
    await create({ ...drop, _id: 'x' });
    const bodies: Parameters<TestKernel['request']>[2][] = [
      {},
      { body: '', headers: { 'content-type': 'application/json' } },
      { json: {} },
      { json: [] },
      { json: '' },
      { json: false },
      { body: 'null', headers: { 'content-type': 'application/json' } },
      { body: JSON.stringify(drop), headers: { 'content-type': 'text/plain' } },
    ];
    for (const options of bodies) {
      for (const [method, path] of [
        ['POST', rules],
        ['PUT', `${rules}/x`],
      ] as const) {
        const res = await t.request(method, path, options);
        expect(res.status, `${method} ${JSON.stringify(options)}`).toBe(400);
        expect(res.body).toEqual(errorBody('Empty request'));
      }
    }
  });

  it('a JSON body that is not an object ⇒ 400 Malformed JSON', async () => {
    for (const json of [[drop], 'drop', 3, true]) {
      const res = await t.post(rules, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toEqual(errorBody('Malformed JSON: the rule should be a JSON object'));
    }
  });

  it('invalid rules ⇒ 400 with the original’s sentence', async () => {
    const cases: [unknown, string][] = [
      [{ ...drop, name: 'x', author: 'y' }, 'Unexpected fields: name, author.'],
      [{ ...drop, description: 3 }, 'The description field should be a string.'],
      [{ pattern: {} }, 'The type field is required.'],
      [{ ...drop, type: 'delete' }, 'The type field should be one of: break, drop, enrichment.'],
      [{ ...drop, type: 7 }, 'The type field should be one of: break, drop, enrichment.'],
      [{ ...drop, priority: 1.5 }, 'The priority field should be an integer.'],
      [{ ...drop, priority: '1' }, 'The priority field should be an integer.'],
      [{ ...drop, priority: null }, 'The priority field should be an integer.'],
      [{ ...drop, enabled: 'yes' }, 'The enabled field should be a boolean.'],
      [{ ...drop, actions: [], on_success: 'pass' }, 'The following fields should only be defined for enrichment rules: actions, on_success.'],
      [{ type: 'enrichment', pattern: {} }, 'The actions field is required for enrichment rules.'],
      [{ ...enrichment, actions: 'set_field' }, 'The actions field should be a list.'],
      [{ ...enrichment, actions: null }, 'The actions field should be a list.'],
      [{ ...enrichment, actions: [] }, 'The actions field should contain at least one action.'],
      [{ ...enrichment, actions: ['set_field'] }, 'The actions field should only contain objects.'],
      [{ ...enrichment, on_success: 'continue' }, 'The on_success field should be one of: pass, break, drop.'],
      [{ ...enrichment, on_failure: 3 }, 'The on_failure field should be one of: pass, break, drop.'],
      [{ ...enrichment, external_data: [] }, 'The external_data field should be an object.'],
      [{ ...drop, pattern: [{ connector: 'x' }] }, 'The pattern field should be an object.'],
      [{ type: 'drop', patterns: { connector: 'x' } }, 'The patterns field should be a list of objects or null.'],
      [{ type: 'drop', patterns: ['x'] }, 'The patterns field should only contain objects.'],
      [{ ...drop, patterns: [{ connector: 'x' }] }, 'The pattern and patterns fields cannot be used together.'],
    ];
    for (const [body, description] of cases) {
      const res = await t.post(rules, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(errorBody(description));
    }
    expect((await t.get(rules)).body).toEqual([]);
  });

  it('accepts empty outcomes, which mean pass, as the original', async () => {
    expect(await create({ ...enrichment, on_success: '', on_failure: null })).toMatch(uuid);
  });

  it('invalid or unbounded regex_match expressions ⇒ 400 naming where they are', async () => {
    const single = await t.post(rules, { ...drop, pattern: { output: { regex_match: '(a+)+$' } } });
    expect(single.status).toBe(400);
    expect(single.body).toEqual(
      errorBody('The pattern field is invalid: pattern.output.regex_match is not an accepted regular expression: nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions.'),
    );
    const listed = await t.post(rules, { type: 'drop', patterns: [{}, { resource: { regex_match: '(' } }] });
    expect(listed.status).toBe(400);
    expect((listed.body as { description: string }).description).toMatch(/^The patterns field is invalid: patterns\[1\]\.resource\.regex_match is not an accepted regular expression: invalid regular expression/);
  });

  it('validates PUT bodies like POST bodies', async () => {
    await create({ ...drop, _id: 'x' });
    await expectError(t.put(`${rules}/x`, { ...drop, extra: 1 }), 400, 'Unexpected fields: extra.');
  });
});
