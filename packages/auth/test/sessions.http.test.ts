import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { sqliteStoreFactory } from '@vigie/store-sqlite';
import { authFeature, UserAdministration } from '../src/index.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

function start(options: { clock?: ManualClock; config?: Record<string, string | number> } = {}) {
  return startTestKernel({
    features: [authFeature],
    env: { VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: 'correct horse' },
    users: { root: 'correct horse' },
    store: sqliteStoreFactory(),
    clock: options.clock,
    config: { 'webserver.conf': { auth: options.config ?? {} } },
  });
}

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  auth: false as const,
});

/** `name=value` of the session cookie a response sets. */
function sessionCookie(res: { headers: Headers }): string {
  const set = res.headers.get('set-cookie') ?? '';
  const match = /(vigie_session=[^;]*)/.exec(set);
  if (!match) throw new Error(`no session cookie in ${set}`);
  return match[1] as string;
}

describe('login sessions', () => {
  it('POST /auth (JSON) opens a server-side session whose HttpOnly SameSite=Lax cookie authenticates every route', async () => {
    t = await start();
    const res = await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'root', name: 'root', role: 'admin', roles: ['admin'], via: 'basic' });
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=28800/);
    expect(setCookie).not.toMatch(/Secure/);
    const cookie = sessionCookie(res);
    for (const path of ['/api/v2/account/me', '/account/me']) {
      const me = await t.get(path, { auth: false, headers: { cookie } });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: 'root', name: 'root', role: 'admin', roles: ['admin'], via: 'basic' });
    }
    const stored = await t.kernel.store.collection('sessions').find({});
    expect(stored).toEqual([expect.objectContaining({ user: 'root', via: 'basic' })]);
    expect(JSON.stringify(stored)).not.toContain(cookie.split('=')[1] as string);
  });

  it('GET /logout ends the session: the cookie is cleared and no longer accepted', async () => {
    t = await start();
    const cookie = sessionCookie(await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false }));
    const out = await fetch(`${t.url}/logout`, { headers: { cookie }, redirect: 'manual' });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/login');
    expect(out.headers.get('set-cookie')).toMatch(/vigie_session=; .*Max-Age=0/);
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(401);
    expect(await t.kernel.store.collection('sessions').count({})).toBe(0);
  });

  it('refuses wrong credentials with 401, missing ones with 400, and sets no cookie', async () => {
    t = await start();
    const wrong = await t.post('/auth', { username: 'root', password: 'wrong horse' }, { auth: false });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ name: '', description: 'Invalid credentials' });
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const missing = await t.post('/auth', { username: 'root' }, { auth: false });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ name: '', description: 'username and password are required' });
  });

  it('a form login redirects to a local `next` only, and a failed one shows the page again with an error', async () => {
    t = await start();
    const ok = await fetch(`${t.url}/auth`, { method: 'POST', redirect: 'manual', ...form({ username: 'root', password: 'correct horse', next: '/api/v2/account/me' }) });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/api/v2/account/me');
    for (const next of ['https://evil.example/', '//evil.example/', '/\\evil.example/']) {
      const res = await fetch(`${t.url}/auth`, { method: 'POST', redirect: 'manual', ...form({ username: 'root', password: 'correct horse', next }) });
      expect(res.headers.get('location')).toBe('/login');
    }
    const bad = await t.request('POST', '/auth', form({ username: 'root<script>', password: 'nope' }));
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    expect(bad.text).toContain('role="alert"');
    expect(bad.text).toContain('Wrong user name or password.');
    expect(bad.text).toContain('value="root&#60;script&#62;"');
    expect(bad.headers.get('set-cookie')).toBeNull();
  });

  it('marks the cookie Secure behind HTTPS (X-Forwarded-Proto) or when configured', async () => {
    t = await start();
    const proxied = await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false, headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers.get('set-cookie')).toMatch(/; Secure/);
    await t.stop();
    t = await start({ config: { secure_cookie: 'always', session_cookie: 'sid' } });
    const always = await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false });
    expect(always.headers.get('set-cookie')).toMatch(/^sid=[^;]+;.*; Secure/);
  });

  it('expires sessions after session_ttl_seconds', async () => {
    const clock = new ManualClock();
    t = await start({ clock, config: { session_ttl_seconds: 600 } });
    const cookie = sessionCookie(await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false }));
    clock.advance(599_000);
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
    clock.advance(1_000);
    const expired = await t.get('/api/v2/account/me', { auth: false, headers: { cookie } });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ name: '', description: 'Invalid credentials' });
  });

  it('drops the sessions of a disabled or deleted account', async () => {
    t = await start();
    const users = t.kernel.scope('auth').resolve(UserAdministration);
    await users.addUser({ name: 'ada', password: 'ada password' });
    const cookie = sessionCookie(await t.post('/auth', { username: 'ada', password: 'ada password' }, { auth: false }));
    expect((await t.get('/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
    await users.setEnabled('ada', false);
    expect((await t.get('/account/me', { auth: false, headers: { cookie } })).status).toBe(401);
    expect(await t.kernel.store.collection('sessions').count({ user: 'ada' })).toBe(0);
  });

  it('still accepts Basic credentials and API keys next to a stale session cookie', async () => {
    t = await start();
    const stale = { cookie: 'vigie_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
    expect((await t.get('/api/v2/account/me', { headers: stale })).status).toBe(200);
    expect((await t.get('/api/v2/account/me', { auth: false, headers: stale })).status).toBe(401);
  });
});

describe('the login page', () => {
  it('is public, plain HTML with labelled fields, and shows who is signed in', async () => {
    t = await start();
    const page = await t.get('/login', { auth: false });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).toContain('<form method="post" action="/auth">');
    expect(page.text).toContain('<label for="username">');
    expect(page.text).toContain('<label for="password">');
    expect(page.text).not.toContain('<script');
    expect(page.text).not.toContain('Other ways to sign in');
    const cookie = sessionCookie(await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false }));
    const signedIn = await t.get('/login', { auth: false, headers: { cookie } });
    expect(signedIn.text).toContain('You are signed in as <strong>root</strong>');
    expect(signedIn.text).toContain('href="/logout"');
  });

  it('shows only the messages it knows for ?error= codes', async () => {
    t = await start();
    expect((await t.get('/login?error=signon', { auth: false })).text).toContain('Sign-on failed');
    const other = await t.get('/login?error=%3Cb%3Ehi', { auth: false });
    expect(other.text).not.toContain('role="alert"');
    expect(other.text).not.toContain('<b>hi');
  });
});
