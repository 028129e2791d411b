import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), which browser tests drive through playwright-core. */
export const chromiumPath = '/usr/bin/chromium';
export const chromiumInstalled = existsSync(chromiumPath);

export interface Browser {
  page: Page;
  context: BrowserContext;
  close(): Promise<void>;
}

export interface ChromiumOptions {
  /** The window size; Chromium's default (800×600) when absent. */
  viewport?: { width: number; height: number };
}

/**
 * Starts headless Chromium with a fresh profile (removed at close), flags that keep it from reaching the network
 * on its own, and one page.
 */
export async function openChromium(options: ChromiumOptions = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'vigie-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      ...(options.viewport ? { viewport: options.viewport } : {}),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      page,
      context,
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

/** The serious or critical axe-core violations of the page as it is now (`rule: targets`), for `toEqual([])`. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    // Runs in the page; the testkit compiles without the DOM's types.
    const inPage = globalThis as unknown as { axe: typeof axe; document: Parameters<typeof axe.run>[0] };
    const result = await inPage.axe.run(inPage.document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
