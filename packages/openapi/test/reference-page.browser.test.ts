import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithService } from '@vigie/kernel-testing';
import { startFeatureTest, testAdmin, type TestKernel } from '@vigie/testkit';
import { openApiFeature } from '../src/index.js';

// Debian's chromium (`.ci/run` installs it); playwright-core drives it without downloading a browser.
const executablePath = process.env.VIGIE_CHROMIUM ?? '/usr/bin/chromium';
const flags = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describeWithService('chromium', existsSync(executablePath), () => {
  let t: TestKernel;
  let profile: string;
  beforeAll(async () => {
    t = await startFeatureTest({ features: [openApiFeature] });
    profile = mkdtempSync(join(tmpdir(), 'vigie-chromium-'));
  });
  afterAll(async () => {
    await t.stop();
    rmSync(profile, { recursive: true, force: true });
  });

  it('renders the route list of the OpenAPI document, loading nothing from outside the server', async () => {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: flags,
      httpCredentials: { username: testAdmin.user, password: testAdmin.password },
    });
    try {
      const page = await context.newPage();
      const foreign: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(t.url) && !request.url().startsWith('data:')) foreign.push(request.url());
      });
      await page.goto(`${t.url}/api/v2/docs`);
      await page.locator('.opblock-summary-path').first().waitFor({ timeout: 30_000 });
      const paths = await page.locator('.opblock-summary-path').allInnerTexts();
      const normalised = paths.map((p) => p.replace(/\u200b/g, '').trim());
      expect(normalised).toEqual(expect.arrayContaining(['/api/v2/openapi.json', '/api/v2/docs', '/api/v2/account/me']));
      expect(await page.locator('.info .title').innerText()).toContain('Vigie API');
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
