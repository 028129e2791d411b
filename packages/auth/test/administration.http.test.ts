import { afterEach, describe, expect, it } from 'vitest';
import { memoryStoreFactory } from '@vigie/documents';
import type { Clock, StoreAdapter, StoreFactory } from '@vigie/kernel';
import { ManualClock, startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { sqliteStoreFactory } from '@vigie/store-sqlite';
import { authFeature } from '../src/index.js';

// @vigie/testkit depends on this package, so its helpers are out of reach here.
const testAdmin = { user: 'root', password: 'root password' };

const kernels: TestKernel[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.stop();
});

async function start(options: { store?: StoreFactory; clock?: Clock } = {}): Promise<TestKernel> {
  const k = await startTestKernel({
    features: [authFeature],
    env: { VIGIE_ADMIN_USER: testAdmin.user, VIGIE_ADMIN_PASSWORD: testAdmin.password },
    users: { [testAdmin.user]: testAdmin.password },
    store: options.store ?? sqliteStoreFactory(),
    clock: options.clock,
  });
  kernels.push(k);
  return k;
}

/** An error answer in the usual envelope. */
async function expectError(response: Promise<{ status: number; body: unknown }>, status: number, description: string): Promise<void> {
  const res = await response;
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { name: '', description } });
}

const as = (name: string, password = `${name} password`) => ({ auth: [name, password] as [string, string] });

async function addUser(t: TestKernel, name: string, roles: string[]): Promise<void> {
  const res = await t.post('/api/v2/users', { name, password: `${name} password`, roles });
  expect(res.status).toBe(200);
}

describe('users over HTTP', () => {
  it('creates, lists with search and paging, reads, changes and deletes users; never shows a password', async () => {
    const t = await start();
    const created = await t.post('/api/v2/users', { name: 'ada', password: 'ada password', roles: ['operator'], firstname: 'Ada', mail: 'ada@example.org' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ _id: 'ada', roles: ['operator'], enabled: true, external: false, firstname: 'Ada' });
    expect(created.text).not.toContain('password');
    for (const name of ['bob', 'carla', 'dan']) await addUser(t, name, ['viewer']);

    const page = await t.get('/api/v2/users?limit=2&page=2');
    expect(page.body).toMatchObject({ meta: { page: 2, per_page: 2, page_count: 3, total_count: 5 } });
    expect((page.body as { data: { _id: string }[] }).data.map((u) => u._id)).toEqual(['carla', 'dan']);
    const found = await t.get('/api/v2/users?search=EXAMPLE.org');
    expect((found.body as { data: { _id: string }[] }).data.map((u) => u._id)).toEqual(['ada']);
    // The search is text, not a regular expression.
    expect((await t.get('/api/v2/users?search=.*')).body).toMatchObject({ meta: { total_count: 0 } });
    expect(JSON.stringify((await t.get('/api/v2/users')).body)).not.toContain('scrypt');

    const changed = await t.put('/api/v2/users/ada', { roles: ['viewer', 'operator'], lastname: 'Lovelace' });
    expect(changed.body).toMatchObject({ _id: 'ada', role: 'viewer', roles: ['viewer', 'operator'], firstname: 'Ada', lastname: 'Lovelace' });
    await expectError(t.put('/api/v2/users/ada', { roles: ['astronaut'] }), 400, 'unknown role astronaut');
    await expectError(t.post('/api/v2/users', { name: 'ada', password: 'another password', roles: [] }), 409, 'user ada already exists');
    await expectError(t.post('/api/v2/users', { name: 'eve', password: 'short', roles: [] }), 400, 'a password has at least 8 characters');
    await expectError(t.get('/api/v2/users/nobody'), 404, 'no user nobody');

    expect((await t.delete('/api/v2/users/bob')).status).toBe(204);
    await expectError(t.get('/api/v2/users/bob'), 404, 'no user bob');
    expect((await t.get('/api/v2/account/me', as('bob'))).status).toBe(401);
  });

  it('keeps one enabled administrator', async () => {
    const t = await start();
    await expectError(t.put(`/api/v2/users/${testAdmin.user}`, { enabled: false }), 409, `${testAdmin.user} is the last enabled admin`);
    await expectError(t.put(`/api/v2/users/${testAdmin.user}`, { roles: ['viewer'] }), 409, `${testAdmin.user} is the last enabled admin`);
    await expectError(t.delete(`/api/v2/users/${testAdmin.user}`), 409, `${testAdmin.user} is the last enabled admin`);
    await addUser(t, 'deputy', ['admin']);
    expect((await t.put(`/api/v2/users/${testAdmin.user}`, { roles: ['viewer'] })).status).toBe(200);
  });

  it('refuses a disabled user at once: remembered credentials, sessions and API keys, on every node of a shared store', async () => {
    const adapter: Promise<StoreAdapter> = memoryStoreFactory()({} as never);
    const shared: StoreFactory = () => adapter;
    const first = await start({ store: shared });
    const second = await start({ store: shared });
    await addUser(first, 'ada', ['operator']);
    const key = (await first.post('/api/v2/api-keys', { label: 'ci' }, as('ada'))).body as { key: string };
    const login = await second.post('/auth', { username: 'ada', password: 'ada password' }, { auth: false });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    // Every way in works on both nodes, and the Basic credentials are now remembered by each.
    for (const node of [first, second]) {
      expect((await node.get('/api/v2/account/me', as('ada'))).status).toBe(200);
      expect((await node.get('/api/v2/account/me', { auth: false, headers: { 'x-canopsis-authkey': key.key } })).status).toBe(200);
      expect((await node.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
    }
    expect((await first.put('/api/v2/users/ada', { enabled: false })).status).toBe(200);
    for (const node of [first, second]) {
      expect((await node.get('/api/v2/account/me', as('ada'))).status).toBe(401);
      expect((await node.get('/api/v2/account/me', { auth: false, headers: { 'x-canopsis-authkey': key.key } })).status).toBe(401);
      expect((await node.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(401);
    }
    expect((await second.put('/api/v2/users/ada', { enabled: true })).status).toBe(200);
    expect((await first.get('/api/v2/account/me', as('ada'))).status).toBe(200);
  });
});

describe('roles over HTTP', () => {
  it('lists the built-in roles, read-only, and manages custom ones whose rights apply at the next request', async () => {
    const t = await start();
    const roles = (await t.get('/api/v2/roles')).body as { name: string; rights: string[]; builtIn: boolean }[];
    expect(roles.map((r) => [r.name, r.builtIn])).toEqual([
      ['admin', true],
      ['operator', true],
      ['viewer', true],
    ]);
    expect(roles[0]?.rights).toEqual(['*']);
    // Only this feature is composed here: no route reads anything a viewer could (apps/server's rights test has them all).
    expect(roles[2]?.rights).toEqual([]);
    await expectError(t.put('/api/v2/roles/viewer', { rights: [] }), 400, 'role viewer is built in and cannot be changed');
    await expectError(t.delete('/api/v2/roles/admin'), 400, 'role admin is built in and cannot be changed');
    await expectError(t.post('/api/v2/roles', { name: 'auditor', rights: ['nothing:here'] }), 400, 'unknown rights: nothing:here');

    const made = await t.post('/api/v2/roles', { name: 'user-manager', description: 'Manages accounts', rights: ['users:admin'] });
    expect(made.body).toEqual({ name: 'user-manager', description: 'Manages accounts', rights: ['users:admin'], builtIn: false });
    await expectError(t.post('/api/v2/roles', { name: 'user-manager', rights: [] }), 409, 'role user-manager already exists');
    await addUser(t, 'mia', ['user-manager']);
    expect((await t.get('/api/v2/users', as('mia'))).status).toBe(200);
    await expectError(t.get('/api/v2/roles', as('mia')), 403, 'the right roles:admin is required');
    await expectError(t.delete('/api/v2/roles/user-manager'), 409, 'role user-manager is held by 1 user(s)');

    expect((await t.put('/api/v2/roles/user-manager', { rights: ['roles:admin'] })).status).toBe(200);
    await expectError(t.get('/api/v2/users', as('mia')), 403, 'the right users:admin is required');
    expect((await t.get('/api/v2/roles', as('mia'))).status).toBe(200);
    expect((await t.get('/api/v2/rights')).body).toEqual(['account:own', 'roles:admin', 'users:admin']);

    // A user's roles add up.
    expect((await t.put('/api/v2/users/mia', { roles: ['user-manager', 'viewer'] })).status).toBe(200);
    const me = (await t.get('/api/v2/account/me', as('mia'))).body as { roles: string[]; rights: string[] };
    expect(me.roles).toEqual(['user-manager', 'viewer']);
    expect(me.rights).toEqual(['account:own', 'roles:admin']);
    expect((await t.put('/api/v2/users/mia', { roles: ['viewer'] })).status).toBe(200);
    expect((await t.delete('/api/v2/roles/user-manager')).status).toBe(204);
    await expectError(t.get('/api/v2/roles/user-manager'), 404, 'no role user-manager');
  });
});

describe('API keys over HTTP', () => {
  it('shows the secret once, a prefix in lists, narrows rights to a subset of the owner, expires and is revoked', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const t = await start({ clock });
    expect((await t.post('/api/v2/roles', { name: 'role-reader', rights: ['roles:admin'] })).status).toBe(200);
    await addUser(t, 'ada', ['role-reader']);
    await expectError(t.post('/api/v2/api-keys', { rights: ['users:admin'] }, as('ada')), 400, 'rights not held by ada: users:admin');
    const now = Math.floor(clock.nowMs() / 1000);
    const created = await t.post('/api/v2/api-keys', { label: 'monitoring', rights: ['account:own'], expires: now + 3600 }, as('ada'));
    expect(created.status).toBe(200);
    const { key, id, prefix } = created.body as { key: string; id: string; prefix: string };
    expect(key.startsWith(prefix)).toBe(true);
    const listed = (await t.get('/api/v2/api-keys', as('ada'))).body as Record<string, unknown>[];
    expect(listed).toEqual([{ id, user: 'ada', label: 'monitoring', prefix, created: now, expires: now + 3600, rights: ['account:own'] }]);
    expect(JSON.stringify(listed)).not.toContain(key);
    // The administrator sees a user's keys, not the secrets.
    expect((await t.get('/api/v2/users/ada/api-keys')).body).toEqual(listed);

    const withKey = { auth: false as const, headers: { 'x-canopsis-authkey': key } };
    expect((await t.get('/api/v2/account/me', withKey)).body).toMatchObject({ name: 'ada', via: 'authkey', rights: ['account:own'] });
    // Ada may read the roles; her key, narrowed to her own account, may not.
    expect((await t.get('/api/v2/roles', as('ada'))).status).toBe(200);
    await expectError(t.get('/api/v2/roles', withKey), 403, 'the right roles:admin is required');
    expect((await t.get('/api/v2/api-keys', withKey)).status).toBe(200);
    clock.advance(3601_000);
    expect((await t.get('/api/v2/account/me', withKey)).status).toBe(401);

    const second = (await t.post('/api/v2/api-keys', { label: 'ci' }, as('ada'))).body as { key: string; id: string };
    const secondKey = { auth: false as const, headers: { 'x-canopsis-authkey': second.key } };
    expect((await t.get('/api/v2/account/me', secondKey)).status).toBe(200);
    await expectError(t.delete(`/api/v2/api-keys/${second.id}`), 404, `no API key ${second.id}`);
    expect((await t.delete(`/api/v2/api-keys/${second.id}`, as('ada'))).status).toBe(204);
    expect((await t.get('/api/v2/account/me', secondKey)).status).toBe(401);
  });
});

describe('PUT /api/v2/account/me', () => {
  it('changes your own name and password with the current password', async () => {
    const t = await start();
    await addUser(t, 'ada', ['viewer']);
    await expectError(t.put('/api/v2/account/me', { current_password: 'wrong password', password: 'new password!' }, as('ada')), 400, 'the current password is wrong');
    await expectError(t.put('/api/v2/account/me', { password: 'new password!' }, as('ada')), 400, 'current_password is a required field');
    const changed = await t.put('/api/v2/account/me', { current_password: 'ada password', password: 'new password!', firstname: 'Ada' }, as('ada'));
    expect(changed.body).toMatchObject({ _id: 'ada', firstname: 'Ada' });
    expect((await t.get('/api/v2/account/me', as('ada'))).status).toBe(401);
    expect((await t.get('/api/v2/account/me', as('ada', 'new password!'))).status).toBe(200);
    // A viewer cannot change its roles this way.
    await expectError(t.put('/api/v2/account/me', { current_password: 'new password!', roles: ['admin'] }, as('ada', 'new password!')), 400, 'this field has unspecified keys: roles');
  });
});
