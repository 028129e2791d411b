import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineFeature } from '@vigie/kernel';
import { expectError, startFeatureTest, testAdmin, type TestKernel } from '@vigie/testkit';
import { consoleExtensionsPoint, consoleFeature } from '../src/index.js';

// The built application is what the feature serves: `pnpm run build` (or `pnpm test`, through typecheck) makes it.
const built = existsSync(new URL('../dist/app/index.html', import.meta.url));

/** A plugin contributing a page, a column and an action, as a real one declares them. */
const helloConsoleFeature = defineFeature({
  id: 'hello-console',
  kernel: '^0.1.0',
  dependsOn: ['console'],
  register(f) {
    f.extend(consoleExtensionsPoint, () => ({
      id: 'hello-console',
      module: '/api/v2/hello-console/console.js',
      pages: [{ path: 'hello', title: 'Hello' }],
      alarmColumns: [{ id: 'greeting', label: 'Greeting' }],
    }));
  },
});

const basic = `Basic ${Buffer.from(`${testAdmin.user}:${testAdmin.password}`).toString('base64')}`;
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});

let t: TestKernel;
beforeAll(async () => {
  if (!built) throw new Error('the console is not built: run `pnpm --filter @vigie/console build:app` first');
  t = await startFeatureTest({ features: [consoleFeature, helloConsoleFeature] });
});
afterAll(() => t?.stop());

describe('the console page', () => {
  it('sends a visitor without a session to the login page, keeping where they were going', async () => {
    for (const [path, next] of [
      ['/', '/'],
      ['/alarms?state=3&sort=component:asc', '/alarms?state=3&sort=component:asc'],
      ['/weather/disk%2Fhost', '/weather/disk%2Fhost'],
    ] as const) {
      const res = await fetch(`${t.url}${path}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(next)}`);
    }
  });

  it('answers the page at every client route, never cached, with a policy that loads only this server', async () => {
    for (const path of ['/', '/alarms', '/weather', '/weather/a%2Fb', '/health', '/access', '/admin', '/admin/eventfilter', '/audit', '/import', '/calendar', '/x/hello']) {
      const res = await fetch(`${t.url}${path}`, { headers: { authorization: basic } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await res.text()).toMatch(/<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js">/);
    }
  });

  it('serves the hashed assets the page names for a year to the signed-in user only, and nothing else', async () => {
    const page = await (await fetch(`${t.url}/`, { headers: { authorization: basic } })).text();
    const [script] = page.match(/\/console\/assets\/index-[\w-]+\.js/) ?? [];
    expect(script).toBeDefined();
    const res = await fetch(`${t.url}${script}`, { headers: { authorization: basic } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect((await fetch(`${t.url}${script}`)).status).toBe(401);
    await expectError(t.get('/console/assets/nope.js'), 404, 'No console asset nope.js');
    await expectError(t.get('/console/assets/..%2Fapp%2Findex.html'), 404, 'No console asset ../app/index.html');
  });
});

describe('the calls of the page', () => {
  it('get a 401 whose challenge the browser does not turn into a password prompt', async () => {
    const script = await fetch(`${t.url}/api/v2/account/me`, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(script.status).toBe(401);
    expect(script.headers.get('www-authenticate')).toBe('Session realm="vigie"');
    const other = await fetch(`${t.url}/api/v2/account/me`);
    expect(other.headers.get('www-authenticate')).toMatch(/^Basic /);
  });
});

describe('signing in through the login page', () => {
  it('lands on the console after a form login without `next`, and on `next` when given', async () => {
    const plain = await fetch(`${t.url}/auth`, form({ username: testAdmin.user, password: testAdmin.password }));
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/');
    const cookie = (plain.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = await fetch(`${t.url}/`, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);

    const withNext = await fetch(`${t.url}/auth`, form({ username: testAdmin.user, password: testAdmin.password, next: '/alarms?state=3' }));
    expect(withNext.headers.get('location')).toBe('/alarms?state=3');
  });

  it('sends a visitor who is signed in already from the login page to `next`', async () => {
    const login = await fetch(`${t.url}/auth`, form({ username: testAdmin.user, password: testAdmin.password }));
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const again = await fetch(`${t.url}/login?next=${encodeURIComponent('/health')}`, { headers: { cookie }, redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/health');
    const plain = await fetch(`${t.url}/login`, { headers: { cookie } });
    expect(await plain.text()).toContain('<a href="/">Continue</a>');
  });
});

describe('GET /api/v2/console/extensions', () => {
  it('lists what the composed features contribute, with empty lists for what they leave out', async () => {
    const res = await t.get('/api/v2/console/extensions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      extensions: [
        {
          id: 'hello-console',
          module: '/api/v2/hello-console/console.js',
          pages: [{ path: 'hello', title: 'Hello' }],
          alarmColumns: [{ id: 'greeting', label: 'Greeting' }],
          alarmActions: [],
        },
      ],
    });
    expect((await t.get('/api/v2/console/extensions', { auth: false })).status).toBe(401);
  });
});
