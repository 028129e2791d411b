import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Kernel } from '@vigie/kernel';
import { describeWithService } from '@vigie/kernel-testing';
import { testPasswordHashCost } from '@vigie/testkit';
import { createServerKernel } from '../src/index.js';

// Debian's chromium (`.ci/run` installs it); playwright-core drives it without downloading a browser.
const executablePath = process.env.VIGIE_CHROMIUM ?? '/usr/bin/chromium';
const flags = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const password = 'admin password';

/** The reference page of the server as deployers run it: every feature's routes, rendered from its whole OpenAPI document. */
describeWithService('chromium', existsSync(executablePath), () => {
  let installDir: string;
  let kernel: Kernel;
  let url: string;
  beforeAll(async () => {
    installDir = mkdtempSync(join(tmpdir(), 'vigie-reference-page-'));
    mkdirSync(join(installDir, 'etc'));
    writeFileSync(join(installDir, 'etc', 'webserver.conf'), '[log]\nlevel = silent\n');
    kernel = await createServerKernel({ installDir, env: { VIGIE_ADMIN_PASSWORD: password, ...testPasswordHashCost }, port: 0 });
    url = (await kernel.start()).url;
  });
  afterAll(async () => {
    await kernel?.stop();
    rmSync(installDir, { recursive: true, force: true });
  });

  it('renders every operation of the composed server, with no schema error and nothing loaded from outside', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`root:${password}`).toString('base64')}` };
    const doc = (await (await fetch(`${url}/api/v2/openapi.json`, { headers: auth })).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(doc.paths).reduce((count, item) => count + Object.keys(item).length, 0);
    expect(operations).toBeGreaterThan(50);

    const profile = mkdtempSync(join(tmpdir(), 'vigie-chromium-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: flags, httpCredentials: { username: 'root', password } });
    try {
      const page = await context.newPage();
      const foreign: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(url) && !request.url().startsWith('data:')) foreign.push(request.url());
      });
      await page.goto(`${url}/api/v2/docs`);
      await page.locator('.opblock-summary-path').first().waitFor({ timeout: 30_000 });
      // Swagger UI keeps only the tags near the viewport on the page once a document is long: scroll through it all,
      // collecting every operation shown, each once (method and path).
      const shown = new Set<string>();
      for (;;) {
        const texts = await page.locator('.opblock-summary').evaluateAll((summaries) =>
          summaries.map((summary) => `${summary.querySelector('.opblock-summary-method')?.textContent ?? ''} ${summary.querySelector('.opblock-summary-path')?.textContent ?? ''}`),
        );
        for (const text of texts) shown.add(text.replace(/\u200b/g, '').trim());
        const atBottom = await page.evaluate(async () => {
          const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
          window.scrollBy(0, window.innerHeight / 2);
          // Two frames: what the scroll brings into view is rendered before the next read.
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return bottom;
        });
        if (atBottom) break;
      }
      expect(shown.size).toBe(operations);
      expect([...shown]).toEqual(expect.arrayContaining(['POST /api/v2/event', 'GET /alerts/get-alarms', 'GET /api/v2/healthcheck']));
      // Swagger UI lists what it could not resolve or parse in an errors box.
      expect(await page.locator('.errors-wrapper').count()).toBe(0);
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
