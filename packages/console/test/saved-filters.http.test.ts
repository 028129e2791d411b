import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { consoleFeature } from '../src/index.js';

const alice: [string, string] = ['alice', 'alice password'];
const bob: [string, string] = ['bob', 'bob password'];

let t: TestKernel;
beforeAll(async () => {
  t = await startFeatureTest({ features: [consoleFeature] });
  for (const [name, password] of [alice, bob]) {
    expect((await t.post('/api/v2/users', { name, password, roles: ['viewer'] })).status).toBe(200);
  }
});
afterAll(() => t?.stop());

interface Saved {
  _id: string;
  name: string;
  query: string;
  created: number;
  updated: number;
}

const list = async (auth: [string, string]) => {
  const res = await t.get('/api/v2/saved-filters', { auth });
  expect(res.status).toBe(200);
  return (res.body as { data: Saved[] }).data;
};

describe('/api/v2/saved-filters', () => {
  it('saves, lists by name, renames, changes and deletes a user\'s own views', async () => {
    const critical = await t.post('/api/v2/saved-filters', { name: 'Critical in Paris', query: 'state=3&q=paris' }, { auth: alice });
    expect(critical.status).toBe(200);
    const saved = critical.body as Saved;
    expect(saved).toEqual({ _id: expect.any(String), name: 'Critical in Paris', query: 'state=3&q=paris', created: expect.any(Number), updated: expect.any(Number) });
    expect((await t.post('/api/v2/saved-filters', { name: 'All open', query: '' }, { auth: alice })).status).toBe(200);
    expect((await list(alice)).map((f) => f.name)).toEqual(['All open', 'Critical in Paris']);

    const renamed = await t.put(`/api/v2/saved-filters/${saved._id}`, { name: 'Paris, critical' }, { auth: alice });
    expect(renamed.body).toMatchObject({ _id: saved._id, name: 'Paris, critical', query: 'state=3&q=paris' });
    const changed = await t.put(`/api/v2/saved-filters/${saved._id}`, { query: 'state=2,3' }, { auth: alice });
    expect(changed.body).toMatchObject({ name: 'Paris, critical', query: 'state=2,3' });

    expect((await t.delete(`/api/v2/saved-filters/${saved._id}`, { auth: alice })).status).toBe(204);
    expect((await list(alice)).map((f) => f.name)).toEqual(['All open']);
  });

  it('keeps each user\'s views from every other user', async () => {
    const mine = (await t.post('/api/v2/saved-filters', { name: 'Mine', query: 'acked=no' }, { auth: alice })).body as Saved;
    expect((await list(bob)).map((f) => f.name)).not.toContain('Mine');
    await expectError(t.put(`/api/v2/saved-filters/${mine._id}`, { name: 'Taken' }, { auth: bob }), 404, `No saved filter with id ${mine._id}`);
    await expectError(t.delete(`/api/v2/saved-filters/${mine._id}`, { auth: bob }), 404, `No saved filter with id ${mine._id}`);
    // The same name is free for another user.
    expect((await t.post('/api/v2/saved-filters', { name: 'Mine', query: '' }, { auth: bob })).status).toBe(200);
    expect((await list(alice)).find((f) => f._id === mine._id)).toMatchObject({ name: 'Mine', query: 'acked=no' });
    expect((await t.get('/api/v2/saved-filters', { auth: false })).status).toBe(401);
  });

  it('refuses bad bodies, a name used twice and more views than the bound, naming the problem', async () => {
    const create = (body: unknown) => t.post('/api/v2/saved-filters', body, { auth: bob });
    await expectError(create(undefined), 400, /the body must be a JSON object/);
    await expectError(t.put('/api/v2/saved-filters/any', undefined, { auth: bob }), 400, /the body must be a JSON object/);
    await expectError(create({ query: '' }), 400, /name is required/);
    await expectError(create({ name: '', query: '' }), 400, /name must not be empty/);
    await expectError(create({ name: 'x'.repeat(101), query: '' }), 400, /name must be at most 100 characters/);
    await expectError(create({ name: 'q', query: 'a'.repeat(4097) }), 400, /query must be at most 4096 characters/);
    await expectError(create({ name: 'q', query: '?state=3' }), 400, /query must be a URL query without \? or #/);
    await expectError(create({ name: 'q', query: '', owner: 'alice' }), 400, /the following keys are invalid: owner/);
    await expectError(create({ name: 42, query: '' }), 400, /name must be a string/);
    await expectError(create({ name: 'Mine', query: '' }), 409, 'A saved filter named Mine already exists');
    const mine = (await list(bob)).find((f) => f.name === 'Mine') as Saved;
    await expectError(t.put(`/api/v2/saved-filters/${mine._id}`, {}, { auth: bob }), 400, /name or query is required/);

    const already = (await list(bob)).length;
    for (let i = already; i < 100; i += 1) expect((await create({ name: `view ${i}`, query: `page=${i}` })).status).toBe(200);
    await expectError(create({ name: 'one more', query: '' }), 409, 'At most 100 saved filters per user: delete one first');
    // Alice is not held back by Bob's count.
    expect((await t.post('/api/v2/saved-filters', { name: 'one more', query: '' }, { auth: alice })).status).toBe(200);
  });
});
