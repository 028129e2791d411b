import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithService } from '@vigie/kernel-testing';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { chromiumInstalled, openChromium, type Browser } from '@vigie/testkit/browser';
import { importSaml2Setup, saml2Feature } from '../src/index.js';
import { freePort } from '@vigie/kernel-testing';
import { removeDir, writeSetupDir } from './fixtures.js';
import { makeKeyPair, startIdp, type TestIdp } from './idp.js';

describeWithService('Chromium (Debian package chromium)', chromiumInstalled, () => {
  let idp: TestIdp;
  let t: TestKernel;
  let browser: Browser;
  const dirs: string[] = [];

  beforeAll(async () => {
    // The identity provider's login form logs this user in by itself.
    idp = await startIdp({ users: { newcomer: { password: 'idp-password', attributes: { firstName: 'Nora', lastName: 'Newcomer', email: 'nora@example.org' } } }, autoLogin: 'newcomer' });
    const port = await freePort();
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-saml2-browser-'));
    const setup = writeSetupDir({ serviceUrl: `http://127.0.0.1:${port}`, idp, sp: makeKeyPair('vigie-sp') });
    dirs.push(installDir, setup);
    importSaml2Setup(setup, installDir);
    t = await startFeatureTest({
      features: [saml2Feature],
      installDir,
      config: { 'webserver.conf': { server: { port }, webservices: { saml2: 1, saml2_default_role: 'viewer' } } },
    });
    idp.trust((await t.get('/auth/saml2/metadata/', { auth: false })).text);
    browser = await openChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await idp?.close();
    for (const dir of dirs) removeDir(dir);
  });

  it('on /login, a user unknown to Vigie is sent to the identity provider and comes back signed in', async () => {
    const { page } = browser;
    await page.goto(`${t.url}/login`);
    await page.getByLabel('User name').fill('newcomer');
    await page.getByLabel('Password').fill('any password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // /auth → /auth/saml2/login/ → the IdP's form (auto-submitted) → its POST to the ACS → back on /login.
    await page.waitForURL(`${t.url}/login`);
    expect(await page.locator('#signed-in').textContent({ timeout: 30_000 })).toBe('You are signed in as newcomer.');
    expect(idp.requests).toHaveLength(1);
    const me = await page.goto(`${t.url}/account/me`);
    expect(await me?.json()).toMatchObject({ id: 'newcomer', name: 'newcomer', role: 'viewer', roles: ['viewer'], via: 'saml2' });
    const cookie = (await page.context().cookies(t.url)).find((c) => c.name === 'vigie_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });
});
