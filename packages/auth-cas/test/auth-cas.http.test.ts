import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userAdministrationRef } from '@vigie/auth';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { authCasFeature, parseServiceResponse } from '../src/index.js';
import { startCasServer, type CasServer } from './cas-server.js';

const path = '/rest/object/casconfig/cservice.casconfig';

let cas: CasServer;
beforeAll(async () => {
  cas = await startCasServer({
    marie: { password: 'marie-password', attributes: { mail: 'marie@example.org', givenName: 'Marie', sn: 'Curie' } },
    root: { password: 'cas-root-password', attributes: {} },
  });
});
afterAll(() => cas.close());

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

function start(providers = 'basic,authkey,cas') {
  return startFeatureTest({ features: [authCasFeature], config: { 'webserver.conf': { auth: { providers } } } });
}

async function configured(providers?: string, overrides: Record<string, unknown> = {}) {
  t = await start(providers);
  const res = await t.post(path, { enable: true, server: cas.url, service: t.url, default_role: 'viewer', title: 'Company SSO', ...overrides });
  expect(res.status).toBe(200);
  return t;
}

/** Logs in at the test CAS server as a browser would, returning the URL it sends the browser back to. */
async function casLogin(loginUrl: string, user: string, password: string): Promise<string> {
  const page = await fetch(loginUrl);
  expect(page.status).toBe(200);
  const service = new URL(loginUrl).searchParams.get('service') as string;
  const res = await fetch(`${cas.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: user, password, service }).toString(),
  });
  expect(res.status).toBe(303);
  return res.headers.get('location') as string;
}

const noFollow = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });

describe('the CAS configuration route', () => {
  it('stores the record and answers it in the {total, data, success} envelope', async () => {
    t = await start();
    expect((await t.get(path)).body).toEqual({ total: 0, data: [], success: true });
    const body = { crecord_type: 'cservice', crecord_name: 'casconfig', _id: 'cservice.casconfig', enable: true, service: 'https://vigie.example.org/', default_role: 'viewer', title: 'SSO', server: 'https://cas.example.org/cas' };
    const res = await t.post(path, body);
    const expected = { ...body, id: 'cservice.casconfig', service: 'https://vigie.example.org', server: 'https://cas.example.org/cas' };
    expect(res.body).toEqual({ total: 1, data: [expected], success: true });
    expect((await t.get(path)).body).toEqual({ total: 1, data: [expected], success: true });
  });

  it('answers 400 naming the faulty field, and 403 to users without the right identity:write', async () => {
    t = await start();
    const valid = { server: 'https://cas.example.org', service: 'https://vigie.example.org', default_role: 'viewer' };
    const cases: [Record<string, unknown>, string][] = [
      [{ server: 'ftp://cas.example.org' }, 'server must be an http:// or https:// URL'],
      [{ service: 'not a url' }, 'service must be an http:// or https:// URL'],
      [{ default_role: undefined }, 'default_role is required'],
      [{ enable: 'yes' }, 'enable must be a `boolean` type, but the final value was: `"yes"`.'],
    ];
    for (const [change, description] of cases) {
      const res = await t.post(path, { ...valid, ...change });
      expect(res.status, description).toBe(400);
      expect(res.body).toEqual({ name: '', description });
    }
    await t.kernel.scope('auth').resolve(userAdministrationRef).addUser({ name: 'ada', password: 'ada password', role: 'viewer' });
    const refused = await t.post(path, valid, { auth: ['ada', 'ada password'] });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ name: '', description: 'the right identity:write is required' });
  });
});

describe('CAS sign-on', () => {
  it('shows a button on the login page only when cas is a provider and the record is enabled', async () => {
    const k = await configured();
    expect((await k.get('/login', { auth: false })).text).toContain('<a class="button" href="/auth/cas/login">Company SSO</a>');
    await k.post(path, { enable: false, server: cas.url, service: k.url, default_role: 'viewer', title: 'Company SSO' });
    expect((await k.get('/login', { auth: false })).text).not.toContain('Company SSO');
    await k.stop();
    const without = await configured('basic');
    expect((await without.get('/login', { auth: false })).text).not.toContain('Company SSO');
    const res = await noFollow(`${without.url}/auth/cas/login`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?error=disabled');
  });

  it('redirects to <server>/login?service=…, validates the ticket with serviceValidate and opens a session for a new user', async () => {
    const k = await configured();
    const start = await noFollow(`${k.url}/auth/cas/login`);
    expect(start.status).toBe(302);
    const service = `${k.url}/auth/cas/login`;
    expect(start.headers.get('location')).toBe(`${cas.url}/login?service=${encodeURIComponent(service)}`);
    const back = await casLogin(start.headers.get('location') as string, 'marie', 'marie-password');
    expect(back.startsWith(`${service}?ticket=ST-`)).toBe(true);
    const landed = await noFollow(back);
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe('/login');
    expect(cas.validations.at(-1)).toEqual({ service, ticket: new URL(back).searchParams.get('ticket') });
    const cookie = /(vigie_session=[^;]+)/.exec(landed.headers.get('set-cookie') ?? '')?.[1] as string;
    expect((await k.get('/account/me', { auth: false, headers: { cookie } })).body).toMatchObject({ id: 'marie', name: 'marie', role: 'viewer', roles: ['viewer'], via: 'cas' });
    expect(await k.kernel.store.collection('users').findOne({ _id: 'marie' })).toMatchObject({ external: true, role: 'viewer', mail: 'marie@example.org', firstname: 'Marie', lastname: 'Curie' });
  });

  it('carries a local `next` through the CAS round trip (provider named as in the original)', async () => {
    const k = await configured('basic,canopsis.auth.cas');
    const start = await noFollow(`${k.url}/auth/cas/login?next=${encodeURIComponent('/api/v2/account/me')}`);
    const back = await casLogin(start.headers.get('location') as string, 'marie', 'marie-password');
    const landed = await noFollow(back);
    expect(landed.headers.get('location')).toBe('/api/v2/account/me');
  });

  it('refuses a replayed ticket, an unknown one, and one issued for another service', async () => {
    const k = await configured();
    const start = await noFollow(`${k.url}/auth/cas/login`);
    const back = await casLogin(start.headers.get('location') as string, 'marie', 'marie-password');
    expect((await noFollow(back)).status).toBe(303);
    const validationsBefore = cas.validations.length;
    const replayed = await noFollow(back);
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get('set-cookie')).toBeNull();
    expect(await replayed.text()).toContain('Sign-on failed');
    // Refused by Vigie itself: the server was not even asked.
    expect(cas.validations.length).toBe(validationsBefore);

    const unknown = await noFollow(`${k.url}/auth/cas/login?ticket=ST-forged`);
    expect(unknown.status).toBe(401);
    const elsewhere = cas.issue('marie', 'https://other.example.org/');
    expect((await noFollow(`${k.url}/auth/cas/login?ticket=${elsewhere}`)).status).toBe(401);
    expect((await noFollow(`${k.url}/auth/cas/login?ticket=${'x'.repeat(300)}`)).status).toBe(401);
  });

  it('never signs a CAS user on as the local account of the same name', async () => {
    const k = await configured();
    const start = await noFollow(`${k.url}/auth/cas/login`);
    const back = await casLogin(start.headers.get('location') as string, 'root', 'cas-root-password');
    const landed = await noFollow(back);
    expect(landed.status).toBe(401);
    expect(landed.headers.get('set-cookie')).toBeNull();
  });

  it('refuses sign-on when the CAS server cannot be reached', async () => {
    const k = await configured(undefined, { server: 'http://127.0.0.1:9' });
    expect((await noFollow(`${k.url}/auth/cas/login?ticket=ST-1`)).status).toBe(401);
  });
});

describe('serviceValidate answers', () => {
  it('reads CAS 2 answers without attributes, CAS 3 attributes, failures and junk', () => {
    expect(parseServiceResponse('<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user> bob </cas:user></cas:authenticationSuccess></cas:serviceResponse>')).toEqual({ user: 'bob', attributes: {} });
    expect(
      parseServiceResponse(
        '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>bob</cas:user><cas:attributes><cas:mail>b@x</cas:mail><cas:memberOf>a</cas:memberOf><cas:memberOf>b</cas:memberOf></cas:attributes></cas:authenticationSuccess></cas:serviceResponse>',
      ),
    ).toEqual({ user: 'bob', attributes: { mail: 'b@x', memberOf: 'a' } });
    expect(parseServiceResponse('<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationFailure code="INVALID_TICKET">no</cas:authenticationFailure></cas:serviceResponse>')).toEqual({ refused: 'the CAS server refused the ticket: INVALID_TICKET no' });
    expect(parseServiceResponse('<serviceResponse><authenticationSuccess><user>bob</user></authenticationSuccess></serviceResponse>')).toHaveProperty('refused');
    expect(parseServiceResponse('yes\nbob\n')).toHaveProperty('refused');
    expect(parseServiceResponse('<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user></cas:user></cas:authenticationSuccess></cas:serviceResponse>')).toHaveProperty('refused');
  });
});
