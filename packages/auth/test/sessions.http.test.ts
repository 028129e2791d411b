import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function start(options: { clock?: ManualClock; config?: Record<string, string | number>; server?: Record<string, string>; installDir?: string } = {}) {
  return startTestKernel({
    ...(options.installDir !== undefined ? { installDir: options.installDir } : {}),
    features: [authFeature],
    env: { VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: 'correct horse' },
    users: { root: 'correct horse' },
    store: sqliteStoreFactory(),
    clock: options.clock,
    config: { 'webserver.conf': { auth: options.config ?? {}, ...(options.server ? { server: options.server } : {}) } },
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

  it('marks the cookie Secure behind HTTPS (X-Forwarded-Proto of a trusted proxy only) or when configured', async () => {
    const viaProxy = { auth: false as const, headers: { 'x-forwarded-proto': 'https' } };
    t = await start();
    // Nobody is trusted by default: a client cannot claim HTTPS.
    const untrusted = await t.post('/auth', { username: 'root', password: 'correct horse' }, viaProxy);
    expect(untrusted.headers.get('set-cookie')).not.toMatch(/; Secure/);
    await t.stop();
    t = await start({ server: { trusted_proxies: 'loopback' } });
    const proxied = await t.post('/auth', { username: 'root', password: 'correct horse' }, viaProxy);
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

  it('refuses a session unused for session_idle_timeout_seconds with the 401 of an expired one; each use pushes the deadline back', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    t = await start({ clock, config: { session_idle_timeout_seconds: 600 } });
    const cookie = sessionCookie(await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false }));
    const me = () => t!.get('/api/v2/account/me', { auth: false, headers: { cookie } });
    // Three uses 599 s apart: 1,797 s in all, three times the timeout, and still signed in.
    for (let use = 0; use < 3; use += 1) {
      clock.advance(599_000);
      expect((await me()).status).toBe(200);
    }
    clock.advance(600_000);
    const idle = await me();
    expect(idle.status).toBe(401);
    expect(idle.body).toEqual({ name: '', description: 'Invalid credentials' });
    // Basic credentials still work beside the ended session's cookie.
    expect((await t.get('/api/v2/account/me', { headers: { cookie } })).status).toBe(200);
  });

  it('stores the renewal at most once per tenth of the idle timeout, not on every request', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    t = await start({ clock, config: { session_idle_timeout_seconds: 600 } });
    const cookie = sessionCookie(await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false }));
    const sessions = t.kernel.store.collection('sessions');
    const opened = Math.floor(Date.UTC(2026, 0, 1) / 1000);
    expect(await sessions.find({})).toEqual([expect.objectContaining({ seen: opened })]);
    clock.advance(59_000);
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
    expect(await sessions.find({})).toEqual([expect.objectContaining({ seen: opened })]);
    clock.advance(1_000);
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
    expect(await sessions.find({})).toEqual([expect.objectContaining({ seen: opened + 60 })]);
  });

  it('still ends a busy session after session_ttl_seconds, and keeps an unused one with session_idle_timeout_seconds = 0', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    t = await start({ clock, config: { session_ttl_seconds: 900, session_idle_timeout_seconds: 300 } });
    const busy = sessionCookie(await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false }));
    for (let use = 0; use < 8; use += 1) {
      clock.advance(100_000);
      expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie: busy } })).status).toBe(200);
    }
    clock.advance(100_000);
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie: busy } })).status).toBe(401);
    await t.stop();
    t = await start({ clock, config: { session_idle_timeout_seconds: 0 } });
    const unused = sessionCookie(await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false }));
    clock.advance(28_799_000);
    expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie: unused } })).status).toBe(200);
  });

  it('keeps the renewal in the store: a session renewed before a restart is still live after it', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-idle-'));
    try {
      t = await start({ clock, installDir, config: { session_idle_timeout_seconds: 600 } });
      const cookie = sessionCookie(await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false }));
      clock.advance(500_000);
      expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
      await t.stop();
      t = await start({ clock, installDir, config: { session_idle_timeout_seconds: 600 } });
      // 1,000 s after the login, 500 s after the renewal made on the first server.
      clock.advance(500_000);
      expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(200);
      clock.advance(600_000);
      expect((await t.get('/api/v2/account/me', { auth: false, headers: { cookie } })).status).toBe(401);
    } finally {
      await t?.stop();
      t = undefined;
      rmSync(installDir, { recursive: true, force: true });
    }
  });

  it('refuses an idle timeout below a minute (other than 0, off)', async () => {
    await expect(start({ config: { session_idle_timeout_seconds: 30 } })).rejects.toThrow(/session_idle_timeout_seconds must be 0 \(off\) or at least 60/);
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

describe('login throttling', () => {
  const basic = (user: string, password: string, address: string) => ({
    auth: false as const,
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, 'x-forwarded-for': address },
  });

  it('answers 429 with Retry-After after repeated failures of an account from one address, without locking it out elsewhere', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    t = await start({ clock, server: { trusted_proxies: 'loopback' } });
    for (let i = 0; i < 5; i += 1) expect((await t.get('/api/v2/account/me', basic('root', `wrong ${i}`, '198.51.100.1'))).status).toBe(401);
    const sixth = await t.get('/api/v2/account/me', basic('root', 'wrong again', '198.51.100.1'));
    expect(sixth.status).toBe(401);
    const blocked = await t.get('/api/v2/account/me', basic('root', 'correct horse', '198.51.100.1'));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect(blocked.body).toEqual({ name: '', description: 'Too many failed logins: retry in 1 s' });
    // The login form counts the same failures.
    expect((await t.post('/auth', { username: 'root', password: 'correct horse' }, basic('x', 'x', '198.51.100.1'))).status).toBe(429);
    // The real user, elsewhere, is not locked out.
    expect((await t.get('/api/v2/account/me', basic('root', 'correct horse', '203.0.113.9'))).status).toBe(200);
    clock.advance(1000);
    // Each further failure doubles the wait.
    expect((await t.get('/api/v2/account/me', basic('root', 'wrong', '198.51.100.1'))).status).toBe(401);
    expect((await t.get('/api/v2/account/me', basic('root', 'still wrong', '198.51.100.1'))).headers.get('retry-after')).toBe('2');
    clock.advance(2000);
    expect((await t.get('/api/v2/account/me', basic('root', 'still wrong', '198.51.100.1'))).status).toBe(401);
  });
});

describe('CSRF token of login sessions', () => {
  it('refuses a change made with the session cookie unless X-CSRF-Token carries the session token; Basic clients are unaffected', async () => {
    t = await start();
    const login = await t.post('/auth', { username: 'root', password: 'correct horse' }, { auth: false });
    const cookies = login.headers.getSetCookie();
    const session = (cookies.find((c) => c.startsWith('vigie_session=')) ?? '').split(';')[0] as string;
    const csrfCookie = cookies.find((c) => c.startsWith('vigie_csrf=')) ?? '';
    expect(csrfCookie).not.toContain('HttpOnly');
    const me = (await t.get('/api/v2/account/me', { auth: false, headers: { cookie: session } })).body as { csrf_token: string };
    expect(csrfCookie.split(';')[0]).toBe(`vigie_csrf=${me.csrf_token}`);

    const forged = await t.post('/api/v2/api-keys', { label: 'forged' }, { auth: false, headers: { cookie: session } });
    expect(forged.status).toBe(403);
    expect((forged.body as { description: string }).description).toMatch(/^the x-csrf-token header must carry the session's CSRF token/);
    expect((await t.post('/api/v2/api-keys', { label: 'wrong' }, { auth: false, headers: { cookie: session, 'x-csrf-token': 'guess' } })).status).toBe(403);
    const made = await t.post('/api/v2/api-keys', { label: 'page' }, { auth: false, headers: { cookie: session, 'x-csrf-token': me.csrf_token } });
    expect(made.status).toBe(200);
    // Basic (and API keys) carry no ambient credential: no token needed.
    expect((await t.post('/api/v2/api-keys', { label: 'script' })).status).toBe(200);
  });
});
