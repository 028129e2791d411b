import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeWithService } from '@vigie/kernel-testing';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { chromiumInstalled, openChromium, type Browser } from '@vigie/testkit/browser';
import { authOidcFeature } from '../src/index.js';
import { startTestIdp, type TestIdp } from './idp.js';

describeWithService('Chromium (Debian package chromium)', chromiumInstalled, () => {
  let idp: TestIdp;
  let t: TestKernel;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // The provider's login form logs this user in by itself.
    idp = await startTestIdp({ marie: { password: 'marie-password', claims: { preferred_username: 'marie', email: 'marie@example.org', groups: ['vigie-operators'] } } }, { autoLogin: 'marie' });
    t = await startFeatureTest({ features: [authOidcFeature], config: { 'webserver.conf': { auth: { providers: 'basic,authkey,oidc' }, 'auth-oidc': { timeout_ms: 60_000 } } } });
    await idp.register(t.url);
    const res = await t.post('/rest/object/oidcconfig/cservice.oidcconfig', {
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      service: t.url,
      scopes: 'openid profile email groups',
      default_role: 'viewer',
      title: 'Company SSO',
      claims: { roles: 'groups' },
      role_map: [{ value: 'vigie-operators', role: 'operator' }],
    });
    expect(res.status).toBe(200);
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });
  afterAll(async () => {
    await t?.stop();
    await idp?.close();
  });

  it('the OpenID Connect button signs in at the provider; Sign out ends both sessions and comes back to the login page', async () => {
    browser = await openChromium();
    const { page } = browser;
    await page.goto(`${t.url}/login`);
    await page.getByRole('link', { name: 'Company SSO' }).click();
    await page.waitForURL(`${t.url}/login`);
    expect(await page.locator('#signed-in').textContent({ timeout: 10_000 })).toBe('You are signed in as marie.');
    const me = await page.goto(`${t.url}/account/me`);
    expect(await me?.json()).toMatchObject({ id: 'marie', name: 'marie', roles: ['operator'], via: 'oidc' });

    await page.goto(`${t.url}/login`);
    await page.getByRole('link', { name: 'Sign out' }).click();
    // RP-initiated logout: the provider asks for confirmation, then sends the browser back to Vigie's login page.
    await page.getByRole('button', { name: 'Sign out of the provider' }).click();
    await page.waitForURL(`${t.url}/login`);
    expect(await page.getByLabel('User name').count()).toBe(1);
    expect(idp.endSessions.at(-1)?.get('post_logout_redirect_uri')).toBe(`${t.url}/login`);
    // The browser's own cookies, sent without navigating (a 401 with a Basic challenge aborts a headless navigation).
    expect((await page.request.get(`${t.url}/account/me`)).status()).toBe(401);

    // The provider's session is over too: signing in again shows its login form (submitted by itself here).
    const formsBefore = idp.loginForms;
    await page.getByRole('link', { name: 'Company SSO' }).click();
    await page.waitForURL(`${t.url}/login`);
    expect(await page.locator('#signed-in').textContent({ timeout: 10_000 })).toBe('You are signed in as marie.');
    expect(idp.loginForms).toBe(formsBefore + 1);
  });

  it('on /login, a user unknown to Vigie is sent to the provider and comes back signed in', async () => {
    browser = await openChromium();
    const { page } = browser;
    await page.goto(`${t.url}/login`);
    await page.getByLabel('User name').fill('marie');
    await page.getByLabel('Password').fill('any password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/login`);
    expect(await page.locator('#signed-in').textContent({ timeout: 10_000 })).toBe('You are signed in as marie.');
  });
});
