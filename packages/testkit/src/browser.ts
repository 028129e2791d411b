import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), which browser tests drive through playwright-core. */
export const chromiumPath = '/usr/bin/chromium';
export const chromiumInstalled = existsSync(chromiumPath);

export interface Browser {
  page: Page;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium with a fresh profile (removed at close), flags that keep it from reaching the network
 * on its own, and one page.
 */
export async function openChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'vigie-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      page,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}
