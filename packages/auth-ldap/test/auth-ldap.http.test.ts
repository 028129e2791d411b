import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@vigie/kernel';
import { describeWithService } from '@vigie/kernel-testing';
import { providerChainRef, userAdministrationRef } from '@vigie/auth';
import { startFeatureTest, testAdmin, type TestKernel } from '@vigie/testkit';
import { authLdapFeature, escapeFilterValue, userFilter } from '../src/index.js';
import { adminDn, adminPassword, slapdInstalled, startSlapd, suffix, type Slapd } from './slapd.js';

const path = '/rest/object/ldapconfig/cservice.ldapconfig';

/** Log lines the features wrote, to check what is (and is not) logged. */
let logLines: string[] = [];
const logger = () => {
  logLines = [];
  return createLogger({ level: 'info', destination: { write: (line: string) => void logLines.push(line) } });
};

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

function start(ldapConfig: Record<string, string | number> = {}, providers = 'basic,ldap') {
  return startFeatureTest({
    features: [authLdapFeature],
    config: { 'webserver.conf': { auth: { providers }, 'auth-ldap': { timeout_ms: 2000, connect_timeout_ms: 2000, ...ldapConfig } } },
    logger: logger(),
  });
}

function record(ldapUri: string, overrides: Record<string, unknown> = {}) {
  return {
    ldap_uri: ldapUri,
    admin_dn: adminDn,
    admin_passwd: adminPassword,
    user_dn: `ou=people,${suffix}`,
    ufilter: '(&(objectClass=inetOrgPerson)(uid=%s))',
    username_attr: 'uid',
    attrs: { mail: 'mail', firstname: 'givenName', lastname: 'sn' },
    default_role: 'operator',
    ...overrides,
  };
}

describe('RFC 4515 escaping of the user value', () => {
  it('escapes the filter metacharacters and nothing else', () => {
    expect(escapeFilterValue('a*b(c)d\\e\0f')).toBe('a\\2ab\\28c\\29d\\5ce\\00f');
    expect(escapeFilterValue('jean-édouard')).toBe('jean-édouard');
    expect(userFilter('(|(uid=%s)(mail=%s))', '*)(uid=*')).toBe('(|(uid=\\2a\\29\\28uid=\\2a)(mail=\\2a\\29\\28uid=\\2a))');
    expect(userFilter('uid=%s', 'a*')).toBe('(uid=a\\2a)');
  });
});

describe('the directory configuration route', () => {
  it('stores the record, answers it in the {total, data, success} envelope with the password masked, and reads it back', async () => {
    t = await start();
    const empty = await t.get(path);
    expect(empty.body).toEqual({ total: 0, data: [], success: true });
    const posted = await t.post(path, record('ldap://ldap.example.org:389'));
    expect(posted.status).toBe(200);
    const expected = {
      _id: 'cservice.ldapconfig',
      id: 'cservice.ldapconfig',
      crecord_type: 'ldapconfig',
      crecord_name: 'ldapconfig',
      ...record('ldap://ldap.example.org:389'),
      admin_passwd: '********',
    };
    expect(posted.body).toEqual({ total: 1, data: [expected], success: true });
    expect((await t.get(path)).body).toEqual({ total: 1, data: [expected], success: true });
    const stored = JSON.stringify(await t.kernel.store.collection('object').find({}));
    expect(stored).not.toContain(adminPassword);
    expect(stored).toContain('aes-256-gcm:v1:');
    expect(logLines.join('')).not.toContain(adminPassword);
  });

  it('accepts the obsolete host and port in place of ldap_uri', async () => {
    t = await start();
    const { ldap_uri: _unused, ...withoutUri } = record('');
    const res = await t.post(path, { ...withoutUri, host: 'ldap.example.org', port: 1389 });
    expect(res.status).toBe(200);
    expect((res.body as { data: Record<string, unknown>[] }).data[0]).toMatchObject({ ldap_uri: 'ldap://ldap.example.org:1389', host: 'ldap.example.org', port: 1389 });
  });

  it('keeps the stored password when it is left out or sent masked', async () => {
    t = await start();
    await t.post(path, record('ldap://a.example.org'));
    const before = await t.kernel.store.collection('object').findOne({ _id: 'cservice.ldapconfig' });
    const { admin_passwd: _unused, ...withoutPassword } = record('ldap://b.example.org');
    expect((await t.post(path, withoutPassword)).status).toBe(200);
    expect((await t.post(path, { ...withoutPassword, admin_passwd: '********' })).status).toBe(200);
    const after = await t.kernel.store.collection('object').findOne({ _id: 'cservice.ldapconfig' });
    expect(after?.admin_passwd).toBe(before?.admin_passwd);
    expect(after?.ldap_uri).toBe('ldap://b.example.org');
  });

  it('answers 400 naming the faulty field', async () => {
    t = await start();
    const cases: [Record<string, unknown>, string][] = [
      [{ admin_dn: undefined }, 'admin_dn is required'],
      [{ ufilter: '(uid=alice)' }, 'ufilter must contain %s where the user name goes'],
      [{ ldap_uri: 'http://ldap.example.org' }, 'ldap_uri must be ldap://host[:port] or ldaps://host[:port]'],
      [{ ldap_uri: undefined }, 'ldap_uri (or the obsolete host) is required'],
      [{ ldap_uri: undefined, host: 'h', port: 70000 }, 'port must be from 1 to 65535'],
      [{ default_role: undefined }, 'default_role is required'],
      [{ attrs: { phone: 'telephoneNumber' } }, 'attrs maps only mail, firstname and lastname'],
    ];
    for (const [change, description] of cases) {
      const res = await t.post(path, record('ldap://ldap.example.org', change));
      expect(res.status, description).toBe(400);
      expect(res.body).toEqual({ name: '', description });
    }
    expect((await t.post(path, [])).status).toBe(400);
    const { admin_passwd: _unused, ...withoutPassword } = record('ldap://ldap.example.org');
    expect((await t.post(path, withoutPassword)).body).toEqual({ name: '', description: 'admin_passwd is required' });
    // With nothing stored, the masked value is a password like any other (the original's documentation posts it).
    expect((await t.post(path, { ...withoutPassword, admin_passwd: '********' })).status).toBe(200);
  });

  it('requires the right identity:write to change it', async () => {
    t = await start();
    await t.kernel.scope('auth').resolve(userAdministrationRef).addUser({ name: 'ada', password: 'ada password', role: 'operator' });
    const res = await t.post(path, record('ldap://ldap.example.org'), { auth: ['ada', 'ada password'] });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ name: '', description: 'the right identity:write is required' });
    expect((await t.get(path, { auth: false })).status).toBe(401);
  });
});

describeWithService('slapd (Debian package slapd)', slapdInstalled, () => {
  let slapd: Slapd;
  beforeAll(async () => {
    slapd = await startSlapd();
  });
  afterAll(async () => {
    await slapd?.stop();
  });

  async function configured(ldapUri: string, ldapConfig: Record<string, string | number> = {}, providers = 'basic,ldap', overrides: Record<string, unknown> = {}) {
    t = await start(ldapConfig, providers);
    const res = await t.post(path, record(ldapUri, overrides));
    expect(res.status).toBe(200);
    return t;
  }

  it('logs a directory user in over HTTP Basic, creating it with default_role and the attrs mapping', async () => {
    // The original's documented record: a filter without parentheses.
    const k = await configured(slapd.ldapUrl, {}, 'basic,ldap', { ufilter: 'uid=%s' });
    const me = await k.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 'alice', name: 'alice', role: 'operator', roles: ['operator'], via: 'ldap' });
    const stored = await k.kernel.store.collection('users').findOne({ _id: 'alice' });
    expect(stored).toMatchObject({ external: true, enabled: true, role: 'operator', password: null, mail: 'alice@example.org', firstname: 'Alice', lastname: 'Liddell' });
    expect((await k.get('/api/v2/account/me', { auth: ['alice', 'wrong-password'] })).status).toBe(401);
    expect((await k.get('/api/v2/account/me', { auth: ['alice', ''] })).status).toBe(401);
    expect((await k.get('/api/v2/account/me', { auth: ['nobody', 'alice-password'] })).status).toBe(401);
  });

  it('keeps the role an administrator gave after the first login, and uses username_attr as the login name', async () => {
    const k = await configured(slapd.ldapUrl, {}, 'basic,ldap', { username_attr: 'employeeNumber' });
    expect((await k.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).body).toMatchObject({ name: 'alice.liddell', role: 'operator' });
    await k.kernel.store.collection('users').updateOne({ _id: 'alice.liddell' }, { $set: { role: 'manager', roles: ['manager'] } });
    k.kernel.scope('auth').resolve(providerChainRef).forgetCredentials();
    expect((await k.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).body).toMatchObject({ role: 'manager' });
  });

  it('opens a session from the login form with directory credentials (provider named as in the original)', async () => {
    const k = await configured(slapd.ldapUrl, {}, 'Basic,canopsis.auth.ldap');
    const res = await k.post('/auth', { username: 'bob', password: 'bob-password' }, { auth: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'bob', name: 'bob', role: 'operator', roles: ['operator'], via: 'ldap' });
    const cookie = /(vigie_session=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] as string;
    expect((await k.get('/account/me', { auth: false, headers: { cookie } })).body).toMatchObject({ name: 'bob', via: 'ldap' });
  });

  it('refuses filter injection: wildcards and filter terms in the user name match nothing', async () => {
    const k = await configured(slapd.ldapUrl);
    for (const name of ['*', 'a*', 'al*ce', '*)(uid=alice', 'alice)(|(uid=*', '\\2a']) {
      expect((await k.get('/api/v2/account/me', { auth: [name, 'alice-password'] })).status, name).toBe(401);
    }
    expect(await k.kernel.store.collection('users').count({ external: true })).toBe(0);
    // A name that really contains a metacharacter still logs in: it is escaped, not stripped.
    expect((await k.get('/api/v2/account/me', { auth: ['star*name', 'star-password'] })).body).toMatchObject({ name: 'star*name' });
  });

  it('never signs a directory entry on as the local account of the same name', async () => {
    const k = await configured(slapd.ldapUrl, {}, 'ldap,basic');
    expect((await k.get('/api/v2/account/me', { auth: ['root', 'directory-root-password'] })).status).toBe(401);
    expect((await k.get('/api/v2/account/me', { auth: [testAdmin.user, testAdmin.password] })).body).toMatchObject({ via: 'basic' });
  });

  it('talks ldaps:// with the configured certificate authority, and refuses an untrusted certificate', async () => {
    const trusted = await configured(slapd.ldapsUrl, { ca_file: slapd.caFile });
    expect((await trusted.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).body).toMatchObject({ name: 'alice', via: 'ldap' });
    await trusted.stop();
    t = undefined;
    const untrusted = await configured(slapd.ldapsUrl);
    expect((await untrusted.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).status).toBe(401);
    expect(logLines.join('')).toMatch(/LDAP login unavailable, trying the next provider: cannot reach ldaps:/);
  });

  it('upgrades ldap:// with StartTLS when configured', async () => {
    const k = await configured(slapd.ldapUrl.replace('127.0.0.1', 'localhost'), { starttls: 1, ca_file: slapd.caFile });
    expect((await k.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).body).toMatchObject({ name: 'alice', via: 'ldap' });
    await k.stop();
    t = undefined;
    // Without the certificate authority the upgrade fails: nothing is sent in the clear instead.
    const refused = await configured(slapd.ldapUrl.replace('127.0.0.1', 'localhost'), { starttls: 1 });
    expect((await refused.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).status).toBe(401);
  });

  it('refuses a wrong admin_passwd with a clear log line', async () => {
    const k = await configured(slapd.ldapUrl, {}, 'basic,ldap', { admin_passwd: 'not-the-admin-password' });
    expect((await k.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).status).toBe(401);
    expect(logLines.join('')).toContain(`the directory refused the bind as admin_dn ${adminDn}`);
    expect(logLines.join('')).not.toContain('not-the-admin-password');
    expect(logLines.join('')).not.toContain('alice-password');
  });
});

describe('a directory that is down or silent', () => {
  let silent: Server;
  let silentPort: number;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never answers: only the operation timeout ends a login.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('fails the LDAP provider with a log line and lets the next provider authenticate', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    t = await start({}, 'ldap,basic');
    expect((await t.post(path, record(`ldap://127.0.0.1:${closed}`))).status).toBe(200);
    expect((await t.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).status).toBe(401);
    expect(logLines.join('')).toMatch(new RegExp(`LDAP login unavailable, trying the next provider: cannot reach ldap://127.0.0.1:${closed}`));
    expect((await t.get('/api/v2/account/me')).body).toMatchObject({ name: testAdmin.user, via: 'basic' });
  });

  it('gives up on a directory that does not answer after timeout_ms', async () => {
    t = await start({ timeout_ms: 300, connect_timeout_ms: 300 }, 'ldap,basic');
    await t.post(path, record(`ldap://127.0.0.1:${silentPort}`));
    const started = Date.now();
    expect((await t.get('/api/v2/account/me', { auth: ['alice', 'alice-password'] })).status).toBe(401);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(logLines.join('')).toContain('LDAP login unavailable');
  });
});
