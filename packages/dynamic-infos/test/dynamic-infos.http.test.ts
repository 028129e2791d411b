import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCodes, VigieError } from '@vigie/kernel';
import { ManualClock } from '@vigie/kernel-testing';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { expectError, startFeatureTest, wrongTypes, type TestKernel } from '@vigie/testkit';
import { dynamicInfosFeature } from '../src/index.js';
import { userAdministrationRef } from '@vigie/auth';

const start = Date.UTC(2025, 5, 1, 12, 0, 0);
let clock: ManualClock;
let t: TestKernel;
beforeEach(async () => {
  clock = new ManualClock(start);
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, dynamicInfosFeature], clock });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.stop();
});

const rules = '/api/v2/dynamic-infos';
const startSec = start / 1000;

const rule = {
  _id: 'di-1',
  name: 'Site of the host',
  description: 'adds the site',
  infos: [
    { name: 'site', value: 'Paris' },
    { name: 'priority', value: 3 },
  ],
  alarm_patterns: [{ v: { component: { regex_match: '^paris-' } } }],
};

async function addUser(name: string, password: string) {
  // Another author: any role with the right dynamic-infos:write; the administrator's has it.
  await t.kernel.scope('auth').resolve(userAdministrationRef).addUser({ name, password, role: 'admin' });
}

const storeFailure = () => new VigieError(ErrorCodes.StoreFailure, 'disk I/O error');

describe('dynamic infos round trip', () => {
  it('creates, reads, lists, replaces and deletes a rule, keeping author and creation date', async () => {
    const created = await t.post(rules, rule);
    expect(created.status).toBe(200);
    const stored = { ...rule, entity_patterns: null, author: 'root', creation_date: startSec, last_modified_date: startSec };
    expect(created.body).toEqual(stored);
    expect((await t.get(`${rules}/di-1`)).body).toEqual(stored);
    expect((await t.get(rules)).body).toEqual({ count: 1, rules: [stored] });
    expect((await t.get(`${rules}/`)).body).toEqual({ count: 1, rules: [stored] });

    await addUser('ada', 'ada password');
    clock.advance(90_000);
    const replacement = { _id: 'di-1', name: 'Site', infos: [{ name: 'site', value: 'Lyon' }], author: 'mallory', creation_date: 1, last_modified_date: 2 };
    const updated = await t.put(`${rules}/di-1`, replacement, { auth: ['ada', 'ada password'] });
    expect(updated.status).toBe(200);
    const after = {
      _id: 'di-1',
      name: 'Site',
      description: '',
      infos: [{ name: 'site', value: 'Lyon' }],
      alarm_patterns: null,
      entity_patterns: null,
      author: 'root',
      creation_date: startSec,
      last_modified_date: startSec + 90,
    };
    expect(updated.body).toEqual(after);
    expect((await t.get(`${rules}/di-1`)).body).toEqual(after);

    const deleted = await t.delete(`${rules}/di-1`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    await expectError(t.get(`${rules}/di-1`), 404, 'no dynamic infos rule with id di-1');
    expect((await t.get(rules)).body).toEqual({ count: 0, rules: [] });
  });

  it('generates the id, ignores author and dates sent on POST, and stores what the engine reads', async () => {
    const res = await t.post(rules, { name: 'n', infos: [], author: 'mallory', creation_date: 5, last_modified_date: 'x' });
    expect(res.status).toBe(200);
    const { _id: id } = res.body as { _id: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await t.kernel.store.collection('dynamic_infos').findOne({ _id: id })).toEqual({
      _id: id,
      name: 'n',
      description: '',
      infos: [],
      alarm_patterns: null,
      entity_patterns: null,
      author: 'root',
      creation_date: startSec,
      last_modified_date: startSec,
    });
  });

  it('keeps the optional info type and disable_during_periods when sent', async () => {
    const body = { _id: 'typed', name: 'n', infos: [{ name: 'up', value: true, type: 'boolean' }, { name: 'note', value: null, type: 'string' }], disable_during_periods: ['maintenance'] };
    const res = await t.post(rules, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ infos: body.infos, disable_during_periods: ['maintenance'] });
  });

  it('serves ids holding slashes and spaces, raw or URL-encoded', async () => {
    await t.post(rules, { ...rule, _id: 'disk/host one' });
    expect((await t.get(`${rules}/disk/host%20one`)).body).toMatchObject({ _id: 'disk/host one' });
    expect((await t.get(`${rules}/disk%2Fhost%20one`)).body).toMatchObject({ _id: 'disk/host one' });
    expect((await t.put(`${rules}/disk%2Fhost%20one`, { name: 'x', infos: [] })).status).toBe(200);
    expect((await t.delete(`${rules}/disk/host%20one`)).body).toEqual({});
  });

  it('accepts a PUT body without _id as the path id', async () => {
    await t.post(rules, rule);
    const res = await t.put(`${rules}/di-1`, { name: 'renamed', infos: [] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: 'di-1', name: 'renamed' });
  });
});

describe('dynamic infos errors', () => {
  it('answers Invalid JSON to a body that does not parse, on POST and PUT', async () => {
    const headers = { 'content-type': 'application/json' };
    await expectError(t.request('POST', rules, { body: '{"name": ', headers }), 400, 'Invalid JSON');
    await t.post(rules, rule);
    await expectError(t.request('PUT', `${rules}/di-1`, { body: '[1,', headers }), 400, 'Invalid JSON');
  });

  it('names the faulty field of an invalid rule', async () => {
    const cases: [unknown, string][] = [
      [{ infos: [] }, 'the name field is required'],
      [{ name: 'n' }, 'the infos field is required'],
      [{ name: 3, infos: [] }, 'name should be a string'],
      [{ name: '', infos: [] }, 'name should not be empty'],
      [{ _id: '', name: 'n', infos: [] }, '_id should not be empty'],
      [{ _id: 4, name: 'n', infos: [] }, '_id should be a string'],
      [{ name: 'n', infos: {} }, 'infos should be a list'],
      [{ name: 'n', infos: [{ name: 'a' }] }, 'each element of the infos array should have a field "value"'],
      [{ name: 'n', infos: [{ value: 'a' }] }, 'each element of the infos array should have a field "name"'],
      [{ name: 'n', infos: ['a'] }, 'infos[0] should be an object'],
      [{ name: 'n', infos: [{ name: '', value: 'a' }] }, 'infos[0].name should not be empty'],
      [{ name: 'n', infos: [{ name: 'a', value: 1.5 }] }, 'infos[0].value should be a string, an integer, a boolean or null'],
      [{ name: 'n', infos: [{ name: 'a', value: { x: 1 } }] }, 'infos[0].value should be a string, an integer, a boolean or null'],
      [{ name: 'n', infos: [{ name: 'a', value: 'b', colour: 'red' }] }, 'the following fields are invalid in the elements of the infos array: colour'],
      [{ name: 'n', infos: [{ name: 'a', value: 'b', type: 'date' }] }, 'infos[0].type should be one of string, integer, boolean'],
      [{ name: 'n', infos: [{ name: 'a', value: 'b', type: 'integer' }] }, 'infos[0].value should be an integer, as its type says'],
      [{ name: 'n', infos: [{ name: 'a', value: 1 }, { name: 'a', value: 2 }] }, 'infos holds the name "a" twice'],
      [{ name: 'n', infos: [], description: 5 }, 'description should be a string'],
      [{ name: 'n', infos: [], alarm_patterns: {} }, 'alarm_patterns should be a list of objects or null'],
      [{ name: 'n', infos: [], entity_patterns: ['x'] }, 'entity_patterns[0] should be an object'],
      [{ name: 'n', infos: [], disable_during_periods: 'pause' }, 'disable_during_periods should be a list of strings'],
      [{ name: 'n', infos: [], colour: 'red', size: 2 }, 'the following keys are invalid: colour, size'],
      [[rule], 'expected a JSON object'],
      ['rule', 'expected a JSON object'],
    ];
    for (const [body, detail] of cases) {
      await expectError(t.post(rules, body), 400, `invalid dynamic infos: ${detail}`);
    }
    expect((await t.get(rules)).body).toEqual({ count: 0, rules: [] });
  });

  it('refuses an empty body, and reads other content types as no body (the original read only JSON bodies)', async () => {
    await expectError(t.request('POST', rules, { headers: { 'content-type': 'application/json' } }), 400, 'invalid dynamic infos: the request body is empty');
    await expectError(t.request('POST', rules, { body: 'null', headers: { 'content-type': 'application/json' } }), 400, 'invalid dynamic infos: expected a JSON object');
    await expectError(t.request('POST', rules, { body: 'name=n', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 400, 'invalid dynamic infos: the request body is empty');
  });

  it('refuses a duplicate id', async () => {
    await t.post(rules, rule);
    await expectError(t.post(rules, rule), 400, 'failed to create dynamic infos: duplicate id di-1');
  });

  it('answers 404 to GET, PUT and DELETE of an unknown id', async () => {
    await expectError(t.get(`${rules}/nope`), 404, 'no dynamic infos rule with id nope');
    await expectError(t.put(`${rules}/nope`, { name: 'n', infos: [] }), 404, 'no dynamic infos rule with id nope');
    await expectError(t.delete(`${rules}/nope`), 404, 'no dynamic infos rule with id nope');
  });

  it('refuses a PUT that changes the _id, and checks the body first', async () => {
    await t.post(rules, rule);
    await expectError(t.put(`${rules}/di-1`, { ...rule, _id: 'di-2' }), 400, 'failed to update dynamic infos: the _id field should not be modified');
    await expectError(t.put(`${rules}/di-1`, { ...rule, infos: 'x' }), 400, 'invalid dynamic infos: infos should be a list');
    await expectError(t.put(`${rules}/nope`, { name: 'n' }), 400, 'invalid dynamic infos: the infos field is required');
    expect((await t.get(`${rules}/di-1`)).body).toMatchObject({ name: rule.name });
  });

  it('words database errors as the spec does', async () => {
    const collection = t.kernel.store.collection('dynamic_infos');
    vi.spyOn(collection, 'insertOne').mockRejectedValueOnce(storeFailure());
    await expectError(t.post(rules, rule), 400, 'failed to create dynamic infos: disk I/O error');

    await t.post(rules, rule);
    vi.spyOn(collection, 'deleteOne').mockRejectedValueOnce(storeFailure());
    await expectError(t.delete(`${rules}/di-1`), 400, 'failed to delete dynamic infos');
    vi.spyOn(collection, 'replaceOne').mockRejectedValueOnce(storeFailure());
    await expectError(t.put(`${rules}/di-1`, rule), 400, 'failed to update dynamic infos');
    vi.spyOn(collection, 'findOne').mockRejectedValueOnce(storeFailure());
    await expectError(t.get(`${rules}/di-1`), 400, 'Cannot retrieve the dynamic infos rule from the database, please contact your administrator.');
    vi.spyOn(collection, 'count').mockRejectedValueOnce(storeFailure());
    await expectError(t.get(rules), 400, 'Cannot retrieve the dynamic infos list from the database, please contact your administrator.');
    expect((await t.get(`${rules}/di-1`)).status).toBe(200);
  });
});

describe('dynamic infos list: search and pagination', () => {
  /** One rule per searchable field holding "needle" there and nowhere else. */
  const byField: Record<string, { _id: string; name: string; description?: string; infos: { name: string; value: unknown }[] }> = {
    _id: { _id: 'rule-NEEDLE-id', name: 'a', infos: [] },
    name: { _id: 'rule-b', name: 'the Needle name', infos: [] },
    description: { _id: 'rule-c', name: 'c', description: 'has a nEeDlE inside', infos: [] },
    'infos.name': { _id: 'rule-e', name: 'e', infos: [{ name: 'needle_info', value: 'x' }] },
    'infos.value': { _id: 'rule-f', name: 'f', infos: [{ name: 'i', value: 'a needle value' }] },
  };

  beforeEach(async () => {
    for (const body of Object.values(byField)) expect((await t.post(rules, body)).status).toBe(200);
    await addUser('needleman', 'needle password');
    expect((await t.post(rules, { _id: 'rule-d', name: 'd', infos: [] }, { auth: ['needleman', 'needle password'] })).status).toBe(200);
    // Nothing to find here: a number value and unrelated text.
    expect((await t.post(rules, { _id: 'rule-g', name: 'g', infos: [{ name: 'n', value: 42 }] })).status).toBe(200);
  });

  const ids = (body: unknown) => (body as { rules: { _id: string }[] }).rules.map((r) => r._id);

  it('finds the needle in each search field alone', async () => {
    const expected: Record<string, string> = { ...Object.fromEntries(Object.entries(byField).map(([field, body]) => [field, body._id])), author: 'rule-d' };
    for (const [field, id] of Object.entries(expected)) {
      const res = await t.get(`${rules}?search=needle&search_fields=${encodeURIComponent(field)}`);
      expect(res.status, field).toBe(200);
      expect(res.body, field).toMatchObject({ count: 1 });
      expect(ids(res.body), field).toEqual([id]);
    }
    const two = await t.get(`${rules}?search=NEEDLE&search_fields=name,%20description`);
    expect(ids(two.body)).toEqual(['rule-b', 'rule-c']);
  });

  it('searches the spec\'s fields by default (not author) and pages through the matches with limit and offset (or skip)', async () => {
    const all = await t.get(`${rules}?search=needle`);
    expect(all.body).toMatchObject({ count: 5 });
    const everyMatch = ids(all.body);
    // rule-d matches only by its author, a field searched only when search_fields names it.
    expect(everyMatch).toEqual(['rule-NEEDLE-id', 'rule-b', 'rule-c', 'rule-e', 'rule-f']);

    const pages: string[][] = [];
    for (const offset of [0, 2, 4]) {
      const page = await t.get(`${rules}?search=needle&limit=2&offset=${offset}`);
      expect(page.body).toMatchObject({ count: 5 });
      pages.push(ids(page.body));
    }
    expect(pages).toEqual([everyMatch.slice(0, 2), everyMatch.slice(2, 4), everyMatch.slice(4, 5)]);
    expect(ids((await t.get(`${rules}?search=needle&limit=2&skip=2`)).body)).toEqual(everyMatch.slice(2, 4));
    expect(ids((await t.get(`${rules}?search=needle&limit=2&offset=5`)).body)).toEqual([]);
    expect(ids((await t.get(`${rules}?search=needle&limit=0&offset=3`)).body)).toEqual(everyMatch.slice(3));

    const noSearch = await t.get(`${rules}?limit=3`);
    expect(noSearch.body).toMatchObject({ count: 7 });
    expect(ids(noSearch.body)).toHaveLength(3);
  });

  it('sorts by sort_key and sort_dir, with _id breaking ties', async () => {
    expect(ids((await t.get(`${rules}?sort_key=name&sort_dir=DESC&limit=3`)).body)).toEqual(['rule-b', 'rule-g', 'rule-f']);
    expect(ids((await t.get(`${rules}?sort_key=author&limit=2`)).body)).toEqual(['rule-d', 'rule-NEEDLE-id']);
    expect(ids((await t.get(`${rules}?sort_key=unknown&sort_dir=DESC&limit=1`)).body)).toEqual(['rule-g']);
  });

  it('takes search as a literal text, not a regular expression', async () => {
    await t.post(rules, { _id: 'dots', name: 'a.b (c)', infos: [] });
    await t.post(rules, { _id: 'nodots', name: 'axb', infos: [] });
    expect(ids((await t.get(`${rules}?search=a.b&search_fields=name`)).body)).toEqual(['dots']);
    expect(ids((await t.get(`${rules}?search=${encodeURIComponent('(c)')}`)).body)).toEqual(['dots']);
    expect(ids((await t.get(`${rules}?search=${encodeURIComponent('.*')}`)).body)).toEqual([]);
  });

  it('refuses invalid parameters with a clear 400', async () => {
    await expectError(t.get(`${rules}?search=x&search_fields=name,colour`), 400, 'the following search fields are invalid: colour');
    await expectError(t.get(`${rules}?limit=ten`), 400, 'limit should be a non-negative integer');
    await expectError(t.get(`${rules}?offset=-1`), 400, 'offset should be a non-negative integer');
    await expectError(t.get(`${rules}?skip=1.5`), 400, 'skip should be a non-negative integer');
    await expectError(t.get(`${rules}?sort_dir=up`), 400, 'sort_dir should be either ASC or DESC');
    await expectError(t.get(`${rules}?limit=1&limit=2`), 400, 'limit should be a non-negative integer');
    await expectError(t.get(`${rules}?search=${'x'.repeat(257)}`), 400, 'search should be at most 256 characters');
  });
});

describe('dynamic infos bodies with fields of the wrong type', () => {
  it('answers each with a 4xx, never a 500', async () => {
    expect((await t.post(rules, rule)).status).toBe(200);
    const full = { ...rule, entity_patterns: [{}], disable_during_periods: ['pause'], infos: [{ name: 'a', value: 'b', type: 'string' }] };
    for (const body of wrongTypes(full)) {
      for (const res of [await t.post(rules, body), await t.put(`${rules}/di-1`, body)]) {
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      }
    }
  });
});
