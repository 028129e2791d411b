import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeWithService } from '@vigie/kernel-testing';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { chromiumInstalled, openChromium, type Browser } from '@vigie/testkit/browser';
import { authCasFeature } from '../src/index.js';
import { startCasServer, type CasServer } from './cas-server.js';

describeWithService('Chromium (Debian package chromium)', chromiumInstalled, () => {
  let cas: CasServer;
  let t: TestKernel;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // The CAS login form logs this user in by itself.
    cas = await startCasServer({ marie: { password: 'marie-password', attributes: { mail: 'marie@example.org' } } }, { autoLogin: 'marie' });
    t = await startFeatureTest({ features: [authCasFeature], config: { 'webserver.conf': { auth: { providers: 'basic,authkey,cas' } } } });
    await t.post('/rest/object/casconfig/cservice.casconfig', { enable: true, server: cas.url, service: t.url, default_role: 'viewer', title: 'Company SSO' });
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });
  afterAll(async () => {
    await t?.stop();
    await cas?.close();
  });

  it('on /login, a user unknown to Vigie is sent to the CAS server and comes back signed in', async () => {
    browser = await openChromium();
    const { page } = browser;
    await page.goto(`${t.url}/login`);
    await page.getByLabel('User name').fill('marie');
    await page.getByLabel('Password').fill('any password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/login`);
    expect(await page.locator('#signed-in').textContent({ timeout: 30_000 })).toBe('You are signed in as marie.');
    const me = await page.goto(`${t.url}/account/me`);
    expect(await me?.json()).toMatchObject({ id: 'marie', name: 'marie', role: 'viewer', roles: ['viewer'], via: 'cas' });
  });

  it('the CAS button of the login page signs in, and Sign out ends the session', async () => {
    browser = await openChromium();
    const { page } = browser;
    await page.goto(`${t.url}/login`);
    await page.getByRole('link', { name: 'Company SSO' }).click();
    await page.waitForURL(`${t.url}/login`);
    expect(await page.locator('#signed-in').textContent({ timeout: 30_000 })).toBe('You are signed in as marie.');
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.url}/login`);
    expect(await page.getByLabel('User name').count()).toBe(1);
    // The browser's own cookies, sent without navigating (a 401 with a Basic challenge aborts a headless navigation).
    expect((await page.request.get(`${t.url}/account/me`)).status()).toBe(401);
  });
});
