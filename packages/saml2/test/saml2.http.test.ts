import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { importSaml2Setup, readSaml2Setup, saml2Feature } from '../src/index.js';
import { freePort } from '@vigie/kernel-testing';
import { removeDir, writeSetupDir } from './fixtures.js';
import { makeKeyPair, startIdp, type KeyPair, type TestIdp } from './idp.js';

const users = { newcomer: { password: 'idp-password', attributes: { firstName: 'Nora', lastName: 'Newcomer', email: 'nora@example.org' } } };

let idp: TestIdp;
let spKeys: KeyPair;
let otherKeys: KeyPair;
beforeAll(async () => {
  idp = await startIdp({ users });
  spKeys = makeKeyPair('vigie-sp');
  otherKeys = makeKeyPair('test-idp');
});
afterAll(() => idp.close());

let t: TestKernel | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.stop();
  t = undefined;
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function start(options: { enabled?: boolean; imported?: boolean; security?: Record<string, unknown> } = {}): Promise<TestKernel> {
  const port = await freePort();
  const serviceUrl = `http://127.0.0.1:${port}`;
  const installDir = mkdtempSync(join(tmpdir(), 'vigie-saml2-install-'));
  dirs.push(installDir);
  if (options.imported !== false) {
    const setup = writeSetupDir({ serviceUrl, idp, sp: spKeys, security: options.security });
    dirs.push(setup);
    importSaml2Setup(setup, installDir);
  }
  t = await startFeatureTest({
    features: [saml2Feature],
    installDir,
    config: { 'webserver.conf': { server: { port }, webservices: { saml2: options.enabled === false ? 0 : 1, saml2_default_role: 'viewer' } } },
  });
  if (options.enabled !== false && options.imported !== false) idp.trust((await t.get('/auth/saml2/metadata/', { auth: false })).text);
  return t;
}

const noFollow = (url: string, init: RequestInit = {}) => fetch(url, { redirect: 'manual', ...init });
const postAcs = (k: TestKernel, samlResponse: string, relayState = '') =>
  noFollow(`${k.url}/auth/saml2/acs/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
  });
const cookieOf = (res: Response) => /(vigie_session=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
const saml2Log = (k: TestKernel) => {
  const path = join(k.installDir, 'var', 'log', 'saml2.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
};

describe('SAML2 service provider', () => {
  it('publishes its metadata: entity id, HTTP-POST ACS and HTTP-Redirect SLS of the spec', async () => {
    const k = await start();
    const res = await k.get('/auth/saml2/metadata/', { auth: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.text).toContain(`entityID="${k.url}/auth/saml2/metadata/"`);
    expect(res.text).toMatch(new RegExp(`AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${k.url}/auth/saml2/acs/"`));
    expect(res.text).toContain(`<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${k.url}/auth/saml2/sls/"/>`);
    expect(res.text).toContain('WantAssertionsSigned="true"');
  });

  it('signs a new user on end to end: login redirect, IdP login, ACS, session, default role and mapped attributes', async () => {
    const k = await start();
    const login = await noFollow(`${k.url}/auth/saml2/login/?next=${encodeURIComponent('/api/v2/account/me')}`);
    expect(login.status).toBe(302);
    const location = login.headers.get('location') as string;
    expect(location.startsWith(`${idp.url}/sso?SAMLRequest=`)).toBe(true);
    expect(new URL(location).searchParams.get('RelayState')).toBe('/api/v2/account/me');
    expect((await fetch(location)).status).toBe(200);
    const request = idp.requests.at(-1) as { id: string; relayState: string };
    const page = await (
      await fetch(`${idp.url}/sso/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'newcomer', password: 'idp-password', request: request.id, RelayState: request.relayState }).toString(),
      })
    ).text();
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(page)?.[1] as string;
    const landed = await postAcs(k, samlResponse, request.relayState);
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe('/api/v2/account/me');
    const cookie = cookieOf(landed) as string;
    expect((await k.get('/account/me', { auth: false, headers: { cookie } })).body).toMatchObject({ id: 'newcomer', name: 'newcomer', role: 'viewer', roles: ['viewer'], via: 'saml2' });
    expect(await k.kernel.store.collection('users').findOne({ _id: 'newcomer' })).toMatchObject({ external: true, role: 'viewer', mail: 'nora@example.org', firstname: 'Nora', lastname: 'Newcomer' });
  });

  it('sends a user unknown to Vigie from the login form to the identity provider, and shows the button', async () => {
    const k = await start();
    expect((await k.get('/login', { auth: false })).text).toContain('href="/auth/saml2/login/"');
    const res = await noFollow(`${k.url}/auth`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=stranger&password=anything' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/auth/saml2/login/');
    // A local account with a wrong password stays on the login page.
    const local = await noFollow(`${k.url}/auth`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=root&password=wrong' });
    expect(local.status).toBe(401);
  });

  it('refuses a forged response (signed with another key), a tampered one and an unsigned one', async () => {
    const k = await start();
    const forged = await idp.response({ nameId: 'mallory' }, otherKeys);
    const genuine = Buffer.from(await idp.response({ nameId: 'newcomer' }), 'base64').toString('utf8');
    const tampered = Buffer.from(genuine.replace('>newcomer</saml:NameID>', '>root</saml:NameID>')).toString('base64');
    expect(tampered).not.toBe(Buffer.from(genuine).toString('base64'));
    for (const [what, response] of [
      ['forged', forged],
      ['tampered', tampered],
      ['unsigned', idp.unsignedResponse({ nameId: 'mallory' })],
    ] as const) {
      const res = await postAcs(k, response);
      expect(res.status, what).toBe(401);
      expect(cookieOf(res), what).toBeUndefined();
      expect(await res.text()).toContain('Sign-on failed');
    }
    expect(await k.kernel.store.collection('users').count({ external: true })).toBe(0);
    expect(saml2Log(k)).toMatch(/ERROR invalid_response: Invalid signature/);
  });

  it('refuses an expired assertion, one without NameID, and a replayed one', async () => {
    const k = await start();
    expect((await postAcs(k, await idp.response({ nameId: 'newcomer', validForSeconds: -600 }))).status).toBe(401);
    expect(saml2Log(k)).toMatch(/ERROR invalid_response: SAML assertion expired/);
    expect((await postAcs(k, await idp.response({ nameId: '' }))).status).toBe(401);
    const once = await idp.response({ nameId: 'newcomer', attributes: users.newcomer.attributes });
    expect((await postAcs(k, once)).status).toBe(303);
    const replayed = await postAcs(k, once);
    expect(replayed.status).toBe(401);
    expect(saml2Log(k)).toContain('response already used');
  });

  it('demands a signed message when advanced_settings.json says wantMessagesSigned', async () => {
    const k = await start({ security: { wantMessagesSigned: true, wantAssertionsSigned: true } });
    const res = await postAcs(k, await idp.response({ nameId: 'newcomer' }));
    expect(res.status).toBe(401);
    expect(saml2Log(k)).toContain('Invalid document signature');
  });

  it('ends the sessions of a user on a signed LogoutRequest of the identity provider, and refuses an unsigned one', async () => {
    const k = await start();
    const landed = await postAcs(k, await idp.response({ nameId: 'newcomer', attributes: users.newcomer.attributes }));
    const cookie = cookieOf(landed) as string;
    expect((await k.get('/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
    const unsigned = await noFollow(await idp.logoutUrl('newcomer', { signed: false }));
    expect(unsigned.status).toBe(400);
    expect(saml2Log(k)).toContain('logout refused: the LogoutRequest is not signed');
    expect((await k.get('/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
    const signed = await noFollow(await idp.logoutUrl('newcomer'));
    expect(signed.status).toBe(302);
    expect(signed.headers.get('location')).toMatch(new RegExp(`^${idp.url}/slo\\?SAMLResponse=`));
    expect((await k.get('/account/me', { auth: false, headers: { cookie } })).status).toBe(401);
  });

  it('refuses unsolicited answers to requests it never sent', async () => {
    const k = await start();
    expect((await postAcs(k, await idp.response({ nameId: 'newcomer', inResponseTo: '_never-sent' }))).status).toBe(401);
  });
});

describe('switching SAML2 on and setting it up', () => {
  it('answers 404 on the SAML2 routes unless [webservices] saml2 = 1', async () => {
    const k = await start({ enabled: false });
    for (const path of ['/auth/saml2/metadata/', '/auth/saml2/login/']) {
      const res = await k.get(path, { auth: false });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ name: '', description: 'SAML2 is not enabled on this server ([webservices] saml2 = 1)' });
    }
    expect((await k.request('POST', '/auth/saml2/acs/', { auth: false, body: 'SAMLResponse=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(404);
    expect((await k.get('/login', { auth: false })).text).not.toContain('saml2');
  });

  it('answers 503 and logs to var/log/saml2.log when enabled but never imported', async () => {
    const k = await start({ imported: false });
    const res = await k.get('/auth/saml2/login/', { auth: false });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ name: '', description: 'SAML2 is not set up on this server' });
    expect(saml2Log(k)).toContain('run `vigie saml2 import <dir>`');
    expect((await k.get('/login', { auth: false })).text).not.toContain('saml2');
  });

  it('imports a setup directory repeatedly, overwriting in place, and refuses URLs that are not fully qualified', () => {
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-saml2-import-'));
    dirs.push(installDir);
    const first = writeSetupDir({ serviceUrl: 'https://vigie.example.org', idp, sp: spKeys });
    const second = writeSetupDir({ serviceUrl: 'https://supervision.example.org', idp, sp: spKeys });
    dirs.push(first, second);
    const destination = importSaml2Setup(first, installDir);
    expect(readSaml2Setup(destination).settings.sp.entityId).toBe('https://vigie.example.org/auth/saml2/metadata/');
    importSaml2Setup(second, installDir);
    expect(readSaml2Setup(destination).settings.sp.entityId).toBe('https://supervision.example.org/auth/saml2/metadata/');
    const bad = writeSetupDir({ serviceUrl: 'http://vigie', idp, sp: spKeys, settings: (s) => ((s.sp as Record<string, unknown>).entityId = 'https://vigie.example.org/') });
    dirs.push(bad);
    expect(() => importSaml2Setup(bad, installDir)).toThrow(/invalid dict settings: sp_acs_url_invalid,sp_sls_url_invalid/);
    // A refused import leaves the previous one in place.
    expect(readSaml2Setup(destination).settings.sp.entityId).toBe('https://supervision.example.org/auth/saml2/metadata/');
  });
});
