import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userAdministrationRef } from '@vigie/auth';
import { createLogger } from '@vigie/kernel';
import { ManualClock } from '@vigie/kernel-testing';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { authOidcFeature, claimValue } from '../src/index.js';
import { startTestIdp, type IdpUser, type TestIdp } from './idp.js';

const path = '/rest/object/oidcconfig/cservice.oidcconfig';

const users: Record<string, IdpUser> = {
  marie: { password: 'marie-password', claims: { preferred_username: 'marie', email: 'marie@example.org', given_name: 'Marie', family_name: 'Curie', groups: ['physics', 'vigie-operators'] } },
  pierre: { password: 'pierre-password', claims: { preferred_username: 'pierre', groups: ['physics'] } },
  root: { password: 'idp-root-password', claims: { preferred_username: 'root' } },
  nameless: { password: 'nameless-password', claims: {} },
};

let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp(users);
});
afterAll(() => idp.close());

/** Log lines the feature wrote: each refusal must be refused for the reason the test provoked. */
let logLines: string[] = [];
function refusals(): string[] {
  return logLines.map((line) => JSON.parse(line) as { msg: string }).filter((entry) => entry.msg.startsWith('OpenID Connect sign-on refused')).map((entry) => entry.msg);
}

let t: TestKernel | undefined;
afterEach(async () => {
  idp.tamper(null);
  await t?.stop();
  t = undefined;
});

function start(options: { providers?: string; clock?: ManualClock } = {}) {
  logLines = [];
  return startFeatureTest({
    features: [authOidcFeature],
    logger: createLogger({ level: 'info', destination: { write: (line: string) => void logLines.push(line) } }),
    // Generous provider timeout: the provider runs in this process, which a loaded machine slows down.
    config: { 'webserver.conf': { auth: { providers: options.providers ?? 'basic,authkey,oidc' }, 'auth-oidc': { timeout_ms: 60_000 } } },
    ...(options.clock ? { clock: options.clock } : {}),
  });
}

function record(k: TestKernel, overrides: Record<string, unknown> = {}) {
  return {
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
    service: k.url,
    scopes: 'openid profile email groups',
    default_role: 'viewer',
    title: 'Company SSO',
    claims: { roles: 'groups' },
    role_map: [
      { value: 'vigie-admins', role: 'admin' },
      { value: 'vigie-operators', role: 'operator' },
    ],
    ...overrides,
  };
}

async function configured(options: { providers?: string; clock?: ManualClock; overrides?: Record<string, unknown> } = {}) {
  t = await start(options);
  await idp.register(t.url);
  const res = await t.post(path, record(t, options.overrides));
  expect(res.status).toBe(200);
  return t;
}

/** A browser's cookies (the provider and Vigie share the host 127.0.0.1; cookies do not depend on the port). */
class Browser {
  readonly cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    this.#keep(res);
    return res;
  }

  async postForm(url: string, form: Record<string, string>): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(url, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
    this.#keep(res);
    return res;
  }

  #keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0\b/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

const location = (res: Response) => res.headers.get('location') as string;
const absolute = (base: string, target: string) => new URL(target, base).toString();

/**
 * Starts a login at Vigie and logs in at the provider as a browser would; returns the provider's redirect back to
 * Vigie (the callback URL with code and state), not yet followed.
 */
async function loginAtProvider(browser: Browser, vigie: string, user: string, password: string, next?: string): Promise<string> {
  const start = await browser.get(`${vigie}/auth/oidc/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  expect(start.status).toBe(302);
  let url = location(start);
  expect(url.startsWith(`${idp.issuer}/auth?`)).toBe(true);
  const toInteraction = await browser.get(url);
  expect(toInteraction.status).toBe(303);
  url = absolute(idp.issuer, location(toInteraction));
  expect((await browser.get(url)).status).toBe(200);
  const loggedIn = await browser.postForm(url, { username: user, password });
  expect(loggedIn.status).toBe(303);
  const resumed = await browser.get(absolute(idp.issuer, location(loggedIn)));
  expect(resumed.status).toBe(303);
  return location(resumed);
}

async function signIn(k: TestKernel, user: string, next?: string): Promise<{ browser: Browser; landed: Response }> {
  const browser = new Browser();
  const back = await loginAtProvider(browser, k.url, user, users[user]?.password as string, next);
  expect(back.startsWith(`${k.url}/auth/oidc/callback?`)).toBe(true);
  return { browser, landed: await browser.get(back) };
}

async function me(k: TestKernel, browser: Browser) {
  return (await browser.get(`${k.url}/api/v2/account/me`)).json();
}

describe('the OpenID Connect configuration route', () => {
  it('stores the record with its defaults, never answers the secret, and keeps it when sent back masked', async () => {
    t = await start();
    expect((await t.get(path)).body).toEqual({ total: 0, data: [], success: true });
    const res = await t.post(path, { issuer: 'https://login.example.org/realms/ops', client_id: 'vigie', client_secret: 's3cret!', service: 'https://vigie.example.org/', default_role: 'viewer' });
    const expected = {
      _id: 'cservice.oidcconfig',
      id: 'cservice.oidcconfig',
      crecord_type: 'cservice',
      crecord_name: 'oidcconfig',
      enable: true,
      issuer: 'https://login.example.org/realms/ops',
      client_id: 'vigie',
      client_secret: '********',
      service: 'https://vigie.example.org',
      scopes: 'openid profile email',
      default_role: 'viewer',
      title: 'OpenID Connect',
      claims: { name: 'preferred_username', mail: 'email', firstname: 'given_name', lastname: 'family_name', roles: '' },
      role_map: [],
      signing_alg: 'RS256',
    };
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: 1, data: [expected], success: true });
    expect((await t.get(path)).body).toEqual({ total: 1, data: [expected], success: true });
    const stored = (await t.kernel.store.collection('object').findOne({ _id: 'cservice.oidcconfig' })) as unknown as { client_secret: string };
    expect(stored.client_secret).toMatch(/^aes-256-gcm:v1:/);
    expect(JSON.stringify(stored)).not.toContain('s3cret!');
    // Sent back as read: the secret stays.
    await t.post(path, { ...expected, title: 'SSO' });
    expect(((await t.kernel.store.collection('object').findOne({ _id: 'cservice.oidcconfig' })) as unknown as { client_secret: string }).client_secret).toBe(stored.client_secret);
    // Empty: a public client.
    const publicClient = await t.post(path, { ...expected, client_secret: '' });
    expect((publicClient.body as { data: { client_secret: string }[] }).data[0]?.client_secret).toBe('');
  });

  it('refuses invalid records naming the field, and non-administrators', async () => {
    t = await start();
    const valid = { issuer: 'https://login.example.org', client_id: 'vigie', service: 'https://vigie.example.org', default_role: 'viewer' };
    const cases: [Record<string, unknown>, string][] = [
      [{ issuer: 'http://login.example.org' }, 'issuer must be an https:// URL (http:// only on a loopback address)'],
      [{ issuer: 'https://login.example.org/?realm=x' }, 'issuer must be an http:// or https:// URL'],
      [{ client_id: undefined }, 'client_id is required'],
      [{ scopes: 'profile email' }, 'scopes must include openid'],
      [{ scopes: 'openid  email' }, 'scopes must be scope names separated by single spaces'],
      [{ claims: { name: 'sub', group: 'x' } }, 'claims maps only name, mail, firstname, lastname and roles'],
      [{ claims: { name: '' } }, 'claims.name must name a claim (the user name comes from it)'],
      [{ role_map: Array.from({ length: 101 }, (_, i) => ({ value: `g${i}`, role: 'viewer' })) }, 'role_map has at most 100 entries'],
      [{ signing_alg: 'HS256' }, 'signing_alg must be one of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, Ed25519'],
      [{ client_secret: '********' }, 'client_secret is masked but no secret is stored: send the secret'],
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
    expect((await t.get(path, { auth: ['ada', 'ada password'] })).status).toBe(200);
  });
});

describe('OpenID Connect sign-on', () => {
  it('shows a button on the login page only when oidc is a provider and the record is enabled', async () => {
    const k = await configured();
    expect((await k.get('/login', { auth: false })).text).toContain('<a class="button" href="/auth/oidc/login">Company SSO</a>');
    await k.post(path, record(k, { enable: false }));
    expect((await k.get('/login', { auth: false })).text).not.toContain('Company SSO');
    const res = await fetch(`${k.url}/auth/oidc/login`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?error=disabled');
    await k.stop();
    const without = await configured({ providers: 'basic' });
    expect((await without.get('/login', { auth: false })).text).not.toContain('Company SSO');
  });

  it('sends the browser to the provider with PKCE, state and nonce, and binds the answer to the browser', async () => {
    const k = await configured();
    const res = await fetch(`${k.url}/auth/oidc/login`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const target = new URL(location(res));
    expect(`${target.origin}${target.pathname}`).toBe(`${idp.issuer}/auth`);
    const q = target.searchParams;
    expect(Object.fromEntries([...q].filter(([name]) => ['client_id', 'redirect_uri', 'response_type', 'scope', 'code_challenge_method'].includes(name)))).toEqual({
      client_id: 'vigie',
      redirect_uri: `${k.url}/auth/oidc/callback`,
      response_type: 'code',
      scope: 'openid profile email groups',
      code_challenge_method: 'S256',
    });
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{43}$/);
    // The login is sealed into the cookie (the state, nonce and verifier appear nowhere in clear).
    const cookie = res.headers.get('set-cookie') as string;
    expect(cookie).toMatch(/^vigie_oidc_login=aes-256-gcm:v1:[^;\s]+; Path=\/auth\/oidc\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toContain(q.get('state') as string);
    expect(cookie).not.toContain(q.get('nonce') as string);
  });

  it('exchanges the code, checks the ID token, maps claims and roles, and opens a session for a new user', async () => {
    const k = await configured();
    const { browser, landed } = await signIn(k, 'marie');
    expect(landed.status).toBe(303);
    expect(location(landed)).toBe('/login');
    expect(browser.cookies.has('vigie_session')).toBe(true);
    expect(browser.cookies.has('vigie_oidc_login')).toBe(false);
    expect(await me(k, browser)).toMatchObject({ id: 'marie', name: 'marie', role: 'operator', roles: ['operator'], via: 'oidc' });
    // oidc-provider releases profile and email claims through userinfo, not in the ID token: they were fetched.
    expect(await k.kernel.store.collection('users').findOne({ _id: 'marie' })).toMatchObject({ external: true, roles: ['operator'], mail: 'marie@example.org', firstname: 'Marie', lastname: 'Curie' });

    // No mapped group: the default role.
    const pierre = await signIn(k, 'pierre');
    expect(await me(k, pierre.browser)).toMatchObject({ id: 'pierre', name: 'pierre', roles: ['viewer'], via: 'oidc' });

    // The provider is the authority on roles: a group change takes effect at the next login.
    (users.pierre as IdpUser).claims.groups = ['vigie-admins', 'vigie-operators'];
    try {
      const again = await signIn(k, 'pierre');
      expect(await me(k, again.browser)).toMatchObject({ id: 'pierre', name: 'pierre', roles: ['admin', 'operator'], via: 'oidc' });
    } finally {
      (users.pierre as IdpUser).claims.groups = ['physics'];
    }
  });

  it('signs on as a public client (no secret: the PKCE verifier alone proves the login)', async () => {
    const k = await configured({ overrides: { client_id: idp.publicClientId, client_secret: '' } });
    const { browser, landed } = await signIn(k, 'marie');
    expect(landed.status).toBe(303);
    expect(await me(k, browser)).toMatchObject({ id: 'marie', name: 'marie', role: 'operator', roles: ['operator'], via: 'oidc' });
  });

  it('reads claims from the ID token when it has them (no userinfo request), nested roles by dotted path', async () => {
    const keycloakLike = await startTestIdp({ anna: { password: 'anna-password', claims: { preferred_username: 'anna', email: 'anna@example.org', realm_access: { roles: ['offline_access', 'vigie-admins'] } } } }, { claimsInIdToken: true });
    try {
      t = await start();
      await keycloakLike.register(t.url);
      expect((await t.post(path, { ...record(t, { issuer: keycloakLike.issuer, claims: { roles: 'realm_access.roles' } }), client_secret: keycloakLike.clientSecret })).status).toBe(200);
      const browser = new Browser();
      const start1 = await browser.get(`${t.url}/auth/oidc/login`);
      const interaction = await browser.get(location(start1));
      const form = absolute(keycloakLike.issuer, location(interaction));
      const loggedIn = await browser.postForm(form, { username: 'anna', password: 'anna-password' });
      const back = await browser.get(absolute(keycloakLike.issuer, location(loggedIn)));
      const landed = await browser.get(location(back));
      expect(landed.status).toBe(303);
      expect(await me(t, browser)).toMatchObject({ id: 'anna', name: 'anna', roles: ['admin'], via: 'oidc' });
      expect(await t.kernel.store.collection('users').findOne({ _id: 'anna' })).toMatchObject({ mail: 'anna@example.org' });
      expect(keycloakLike.userinfoRequests).toBe(0);
    } finally {
      await keycloakLike.close();
    }
  });

  it('carries a local next through the round trip, and never an outside one', async () => {
    const k = await configured();
    expect(location((await signIn(k, 'marie', '/api/v2/account/me')).landed)).toBe('/api/v2/account/me');
    expect(location((await signIn(k, 'marie', 'https://evil.example.org/')).landed)).toBe('/login');
  });

  it('refuses an answer brought to another browser, a replayed one, another login’s, a forged cookie, an old one and the provider’s error', async () => {
    const clock = new ManualClock(Date.now());
    const k = await configured({ clock });
    const browser = new Browser();
    const back = await loginAtProvider(browser, k.url, 'marie', 'marie-password');
    const loginCookie = browser.cookies.get('vigie_oidc_login') as string;
    // Another browser (the attacker's answer planted in a victim's browser): no login cookie.
    const elsewhere = await new Browser().get(back);
    expect(elsewhere.status).toBe(401);
    expect(await elsewhere.text()).toContain('Sign-on failed');
    expect((await browser.get(back)).status).toBe(303);
    // Replayed, even with the cookie put back: the provider takes a code once.
    browser.cookies.set('vigie_oidc_login', loginCookie);
    const replayed = await browser.get(back);
    expect(replayed.status).toBe(401);
    expect(replayed.headers.getSetCookie().some((line) => line.startsWith('vigie_session='))).toBe(false);

    // This browser's cookie with another login's answer.
    const other = new Browser();
    const otherBack = await loginAtProvider(other, k.url, 'marie', 'marie-password');
    const mixed = new Browser();
    await mixed.get(`${k.url}/auth/oidc/login`);
    expect((await mixed.get(otherBack)).status).toBe(401);

    const forged = new Browser();
    forged.cookies.set('vigie_oidc_login', 'aes-256-gcm:v1:0:AAAA:AAAA:AAAA');
    expect((await forged.get(otherBack)).status).toBe(401);

    const late = new Browser();
    const lateBack = await loginAtProvider(late, k.url, 'marie', 'marie-password');
    clock.advance(601_000);
    expect((await late.get(lateBack)).status).toBe(401);

    const denied = new Browser();
    const deniedStart = await denied.get(`${k.url}/auth/oidc/login`);
    const state = new URL(location(deniedStart)).searchParams.get('state') as string;
    expect((await denied.get(`${k.url}/auth/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`)).status).toBe(401);
    const reasons = refusals().map((line) => line.replace('OpenID Connect sign-on refused: ', ''));
    expect(reasons.slice(0, 2)).toEqual(['the answer is for a login this browser did not start (no login cookie)', expect.stringContaining("the provider's answer was refused")]);
    expect(reasons[1]).toContain('invalid_grant');
    expect(reasons.slice(2)).toEqual([
      'the answer is for another login than this browser’s',
      expect.stringContaining('the login cookie cannot be read'),
      'the login was started more than 600 seconds ago',
      "the provider's answer was refused: authorization response from the server is an error (access_denied)",
    ]);
  });

  it('never signs a provider user on as the local account of the same name, nor one without a user name', async () => {
    const k = await configured();
    expect((await signIn(k, 'root')).landed.status).toBe(401);
    expect((await signIn(k, 'nameless')).landed.status).toBe(401);
    expect(await k.kernel.store.collection('users').findOne({ _id: 'nameless' })).toBeNull();
    expect(refusals()).toEqual([
      'OpenID Connect sign-on refused: root is a local account; oidc may not sign it on',
      'OpenID Connect sign-on refused: the claims have no preferred_username (the claim naming the user)',
    ]);
  });

  it('answers the login page with 503 when the provider cannot be reached', async () => {
    const k = await configured();
    await k.post(path, record(k, { issuer: 'http://127.0.0.1:9' }));
    const res = await fetch(`${k.url}/auth/oidc/login`, { redirect: 'manual' });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('the identity provider cannot be reached');
  });

  it('sends the browser to the provider’s end-session endpoint at logout, and back to the login page', async () => {
    const k = await configured();
    const { browser, landed } = await signIn(k, 'marie');
    expect(landed.headers.getSetCookie().find((line) => line.startsWith('vigie_oidc_logout='))).toMatch(/^vigie_oidc_logout=aes-256-gcm:v1:[^;\s]+; Path=\/logout; Max-Age=31536000; HttpOnly; SameSite=Lax$/);
    const out = await browser.get(`${k.url}/logout`);
    expect(out.status).toBe(303);
    const target = new URL(location(out));
    expect(`${target.origin}${target.pathname}`).toBe(`${idp.issuer}/session/end`);
    const { id_token_hint: hint, ...rest } = Object.fromEntries(target.searchParams);
    expect(rest).toEqual({ client_id: 'vigie', post_logout_redirect_uri: `${k.url}/login` });
    // The session's own ID token, kept sealed in the logout cookie, which logout clears.
    expect(decodeJwt(hint as string)).toMatchObject({ iss: idp.issuer, aud: 'vigie', sub: 'marie' });
    expect(browser.cookies.has('vigie_oidc_logout')).toBe(false);
    expect((await browser.get(`${k.url}/api/v2/account/me`)).status).toBe(401);
    // The provider accepts it: the confirmation page, not an error.
    const confirmation = await browser.get(target.toString());
    expect(confirmation.status).toBe(200);
    expect(await confirmation.text()).toContain('Sign out of the provider');
    // A local user's logout stays local.
    const local = await fetch(`${k.url}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: 'root-password' }) });
    const cookie = /(vigie_session=[^;]+)/.exec(local.headers.get('set-cookie') ?? '')?.[1] as string;
    expect((await fetch(`${k.url}/logout`, { redirect: 'manual', headers: { cookie } })).headers.get('location')).toBe('/login');
  });
});

describe('ID-token checks', () => {
  async function refusedWith(k: TestKernel, change: Parameters<TestIdp['tamper']>[0], why: string): Promise<void> {
    const browser = new Browser();
    const back = await loginAtProvider(browser, k.url, 'marie', 'marie-password');
    idp.tamper(change);
    const landed = await browser.get(back);
    idp.tamper(null);
    expect(landed.status).toBe(401);
    expect(await landed.text()).toContain('Sign-on failed');
    expect(browser.cookies.has('vigie_session')).toBe(false);
    expect(refusals().at(-1)).toContain(why);
  }

  it('refuses a token from another issuer, for another audience, with another nonce, or signed by another key', async () => {
    const k = await configured();
    await refusedWith(k, { claims: (c) => ({ ...c, iss: 'https://evil.example.org' }) }, 'unexpected JWT claim value encountered (claim iss)');
    await refusedWith(k, { claims: (c) => ({ ...c, aud: 'another-client' }) }, 'unexpected JWT claim value encountered (claim aud)');
    await refusedWith(k, { claims: (c) => ({ ...c, nonce: 'replayed-nonce' }) }, 'unexpected JWT claim value encountered (claim nonce)');
    await refusedWith(k, { foreignKey: true }, 'the ID token signature was refused: signature verification failed');
    // The same answers, untouched, are accepted: the refusals above come from the changes.
    expect((await signIn(k, 'marie')).landed.status).toBe(303);
  });

  it('refuses an expired token (Vigie’s clock two hours ahead of the provider’s one-hour tokens)', async () => {
    const clock = new ManualClock(Date.now());
    const k = await configured({ clock });
    expect((await signIn(k, 'marie')).landed.status).toBe(303);
    clock.advance(2 * 3600_000);
    expect((await signIn(k, 'marie')).landed.status).toBe(401);
    expect(refusals()).toEqual(["OpenID Connect sign-on refused: the provider's answer was refused: JWT timestamp claim value failed validation (claim exp)"]);
  });

  it('follows a key rotation: reads the keys again for an unknown key id, at most once a minute', async () => {
    const clock = new ManualClock(Date.now());
    const k = await configured({ clock });
    expect((await signIn(k, 'marie')).landed.status).toBe(303);
    const fetched = idp.jwksRequests;
    expect(fetched).toBeGreaterThanOrEqual(1);
    await idp.rotateKeys();
    // Within a minute of the last read, an unknown key is refused without asking the provider.
    expect((await signIn(k, 'marie')).landed.status).toBe(401);
    expect(refusals().at(-1)).toContain('no applicable key found in the JSON Web Key Set');
    expect(idp.jwksRequests).toBe(fetched);
    clock.advance(61_000);
    expect((await signIn(k, 'marie')).landed.status).toBe(303);
    expect(idp.jwksRequests).toBe(fetched + 1);
    // A made-up key id makes Vigie read the keys once more (a minute later), then refuses.
    clock.advance(61_000);
    await refusedWith(k, { foreignKey: true, kid: 'made-up' }, 'no applicable key found in the JSON Web Key Set');
    expect(idp.jwksRequests).toBe(fetched + 2);
  });
});

describe('claim paths', () => {
  it('reads a claim by name first, then by dotted path', () => {
    const claims = { 'https://example.org/roles': ['a'], realm_access: { roles: ['b'] }, plain: 'x' };
    expect(claimValue(claims, 'https://example.org/roles')).toEqual(['a']);
    expect(claimValue(claims, 'realm_access.roles')).toEqual(['b']);
    expect(claimValue(claims, 'realm_access.missing')).toBeUndefined();
    expect(claimValue(claims, 'constructor')).toBeUndefined();
    expect(claimValue(claims, 'plain.length')).toBeUndefined();
  });
});
