import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineFeature, kernelRefs } from '@vigie/kernel';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { sqliteStoreFactory } from '@vigie/store-sqlite';
import { authFeature, authProvidersPoint, type AuthProvider, UserAdministration, UserRepository } from '../src/index.js';

const admin = { VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: 'correct horse' };

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
  vi.restoreAllMocks();
});

function start(options: { env?: Record<string, string>; config?: Record<string, string | number>; features?: Parameters<typeof startTestKernel>[0]['features']; installDir?: string } = {}) {
  return startTestKernel({
    features: options.features ?? [authFeature],
    env: options.env ?? admin,
    users: { root: 'correct horse' },
    store: sqliteStoreFactory(),
    installDir: options.installDir,
    config: { 'webserver.conf': { auth: options.config ?? {} } },
  });
}

const administration = (kernel: TestKernel) => kernel.kernel.scope('auth').resolve(UserAdministration);

describe('local users over HTTP Basic', () => {
  it('creates the first administrator from VIGIE_ADMIN_USER / VIGIE_ADMIN_PASSWORD and authenticates it', async () => {
    t = await start();
    const me = await t.get('/api/v2/account/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 'root', name: 'root', role: 'admin', roles: ['admin'], via: 'basic' });
  });

  it('hashes passwords at [auth] password_hash_cost (scrypt N = 2^15 by default) and accepts hashes of any cost', async () => {
    t = await start();
    const storedHash = async (name: string) => (await t!.kernel.scope('auth').resolve(UserRepository).get(name))?.password;
    expect(await storedHash('root')).toMatch(/^scrypt\$32768\$8\$1\$/);
    await t.stop();
    t = await start({ config: { password_hash_cost: 10 } });
    await administration(t).addUser({ name: 'ada', password: 'ada password', role: 'admin' });
    expect(await storedHash('ada')).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect((await t.get('/api/v2/account/me', { auth: ['ada', 'ada password'] })).status).toBe(200);
    expect((await t.get('/api/v2/account/me', { auth: ['ada', 'wrong password'] })).status).toBe(401);
    expect((await t.get('/api/v2/account/me', { auth: ['nobody', 'ada password'] })).status).toBe(401);
  });

  it('answers 401 JSON with a Basic challenge to missing, wrong and malformed credentials', async () => {
    t = await start();
    const none = await t.get('/api/v2/account/me', { auth: false });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="vigie", charset="UTF-8"');
    expect(none.body).toEqual({ name: '', description: 'Authentication required' });
    const wrong = await t.get('/api/v2/account/me', { auth: ['root', 'wrong horse'] });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ name: '', description: 'Invalid credentials' });
    const unknown = await t.get('/api/v2/account/me', { auth: ['nobody', 'correct horse'] });
    expect(unknown.status).toBe(401);
    const malformed = await t.get('/api/v2/account/me', { auth: false, headers: { authorization: 'Basic !!!' } });
    expect(malformed.status).toBe(401);
    const unknownRoute = await t.get('/api/v2/does-not-exist', { auth: false });
    expect(unknownRoute.status).toBe(401);
  });

  it('answers 404 JSON to an authenticated request for an unknown route', async () => {
    t = await start();
    const res = await t.get('/api/v2/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ name: '', description: 'No route matches GET /api/v2/does-not-exist' });
  });

  it('refuses a disabled account and forgets remembered credentials when a password changes', async () => {
    t = await start();
    const users = administration(t);
    await users.addUser({ name: 'ada', password: 'first password' });
    expect((await t.get('/api/v2/account/me', { auth: ['ada', 'first password'] })).status).toBe(200);
    await users.setPassword('ada', 'second password');
    expect((await t.get('/api/v2/account/me', { auth: ['ada', 'first password'] })).status).toBe(401);
    expect((await t.get('/api/v2/account/me', { auth: ['ada', 'second password'] })).status).toBe(200);
    await users.setEnabled('ada', false);
    expect((await t.get('/api/v2/account/me', { auth: ['ada', 'second password'] })).status).toBe(401);
  });

  it('reads a remembered account no more while nothing is written to the accounts, and again after any write', async () => {
    t = await start();
    await administration(t).addUser({ name: 'ada', password: 'first password' });
    const ada = { auth: ['ada', 'first password'] as [string, string] };
    expect((await t.get('/api/v2/account/me', ada)).status).toBe(200);
    const reads: string[] = [];
    t.kernel.observations.on('store', (o) => void (o.collection === 'users' && reads.push(o.operation)));
    expect((await t.get('/api/v2/account/me', ada)).status).toBe(200);
    expect((await t.get('/api/v2/account/me', ada)).status).toBe(200);
    // The embedded store is written by this process only: the grant is kept while its collections are unchanged.
    expect(reads).toEqual([]);
    // Disabled by a write that bypasses the user administration: the stamp of the collection moved all the same.
    await t.kernel.scope('auth').resolve(kernelRefs.store).batch([{ op: 'update', collection: 'users', filter: { _id: 'ada' }, update: { $set: { enabled: false } } }]);
    expect((await t.get('/api/v2/account/me', ada)).status).toBe(401);
    expect(reads).toContain('findOne');
  });

  it('prints a generated administrator password once, at the first start only', async () => {
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-auth-'));
    try {
      const printed: string[] = [];
      const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        printed.push(String(chunk));
        return true;
      });
      t = await start({ env: {}, installDir });
      spy.mockRestore();
      const banner = printed.join('');
      const password = /password:\n\n\s+(\S+)\n/.exec(banner)?.[1];
      expect(password).toBeDefined();
      expect((await t.get('/api/v2/account/me', { auth: ['root', password as string] })).status).toBe(200);
      await t.stop();

      const again: string[] = [];
      const spy2 = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        again.push(String(chunk));
        return true;
      });
      t = await start({ env: {}, installDir });
      spy2.mockRestore();
      expect(again.join('')).not.toContain('password');
      expect((await t.get('/api/v2/account/me', { auth: ['root', password as string] })).status).toBe(200);
    } finally {
      await t?.stop();
      t = undefined;
      rmSync(installDir, { recursive: true, force: true });
    }
  });
});

describe('API keys', () => {
  it('authenticate through the authkey query parameter or the x-canopsis-authkey header, as their user', async () => {
    t = await start();
    const users = administration(t);
    await users.addUser({ name: 'robot', password: 'robot password', role: 'operator' });
    const { key } = await users.createApiKey('robot', { label: 'ci' });
    const byQuery = await t.get(`/api/v2/account/me?authkey=${encodeURIComponent(key)}`, { auth: false });
    expect(byQuery.body).toMatchObject({ id: 'robot', name: 'robot', role: 'operator', roles: ['operator'], via: 'authkey' });
    const byHeader = await t.get('/api/v2/account/me', { auth: false, headers: { 'x-canopsis-authkey': key } });
    expect(byHeader.status).toBe(200);
    expect((await t.get('/api/v2/account/me?authkey=vk_unknown', { auth: false })).status).toBe(401);
    await users.deleteUser('robot');
    expect((await t.get(`/api/v2/account/me?authkey=${encodeURIComponent(key)}`, { auth: false })).status).toBe(401);
  });

  it('stores only a digest of each key', async () => {
    t = await start();
    const { key, id } = await administration(t).createApiKey('root', { label: 'x' });
    const stored = await t.kernel.store.collection('api_keys').find({});
    expect(stored).toEqual([expect.objectContaining({ _id: id, user: 'root' })]);
    expect(JSON.stringify(stored)).not.toContain(key);
  });
});

describe('provider selection', () => {
  it('uses the providers named in [auth] providers, accepting the original dotted names, and always local Basic', async () => {
    t = await start({ config: { providers: 'canopsis.auth.authkey' } });
    const { key } = await administration(t).createApiKey('root');
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { 'x-canopsis-authkey': key } })).status).toBe(200);
    // REFERENCE §3.2: HTTP Basic with a local user is accepted whatever the list says.
    expect((await t.get('/api/v2/account/me')).status).toBe(200);
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { authorization: `Basic ${Buffer.from('root:wrong').toString('base64')}` } })).status).toBe(401);
  });

  it('fails to start when a provider name is unknown, listing the available ones', async () => {
    await expect(start({ config: { providers: 'basic,ldap' } })).rejects.toThrow('[auth] providers names unknown providers: ldap (available: authkey, basic)');
  });

  it('accepts providers contributed by other features through the auth.providers extension point', async () => {
    const tokenFeature = defineFeature({
      id: 'token-auth',
      kernel: '^0.1.0',
      dependsOn: ['auth'],
      register(f) {
        f.extend<AuthProvider>(authProvidersPoint, () => ({
          name: 'token',
          authenticate: async (request) => {
            const token = request.header('x-token');
            if (!token) return null;
            return token === 'let-me-in' ? { user: { id: 'svc', name: 'svc', via: 'token' } } : { refused: 'bad token' };
          },
        }));
      },
    });
    t = await start({ features: [authFeature, tokenFeature], config: { providers: 'token,basic' } });
    // The rights come from the account: a provider naming a user Vigie has no account for is refused.
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { 'x-token': 'let-me-in' } })).status).toBe(401);
    await administration(t).signOnExternal({ name: 'svc', via: 'token', defaultRole: 'viewer', contact: {} });
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { 'x-token': 'let-me-in' } })).body).toMatchObject({ name: 'svc', role: 'viewer', via: 'token' });
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { 'x-token': 'nope' } })).status).toBe(401);
    expect((await t.get('/api/v2/account/me')).status).toBe(200);
  });
});
