import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithService } from '@vigie/kernel-testing';
import { chromiumInstalled } from '@vigie/testkit/browser';
import { check, fiveAlarms, rootPassword, screenshotsWanted, startConsole, viewer, type ConsoleUnderTest } from './fixtures/console-browser.js';

/** The operators' actions in the console (alarm actions, live list and banner, weather pause, saved views), in Chromium against the composed server. */
describeWithService('chromium', chromiumInstalled, () => {
  let ui: ConsoleUnderTest;
  let url: string;
  let page: Page;
  const rows = () => page.locator('tbody tr.row');
  /** Counts the reads of the alarm list the page makes from now on. */
  const countListReads = () => {
    const reads = { count: 0 };
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/alerts/get-alarms') reads.count += 1;
    });
    return reads;
  };

  beforeAll(async () => {
    ui = await startConsole({ alarms: fiveAlarms });
    ({ url, page } = ui);
    await ui.signIn('root', rootPassword);
  }, 60_000);
  afterAll(() => ui?.stop());

  it('updates the list live while events arrive: rows change in place, new ones appear, leaving ones go, with no reading of the page', async () => {
    await page.goto(`${url}/?q=lyon&state=2,3`);
    await expect.poll(() => rows().count()).toBe(1);
    await expect.poll(() => page.locator('p.live').innerText()).toBe('Live');
    const reads = countListReads();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    await ui.send([check('mq-lyon-2', 'queue', 3, 'consumer gone')]);
    await expect.poll(() => page.locator('tbody tr.row td.col-component').allInnerTexts()).toEqual(['mq-lyon-2', 'mq-lyon-1']);
    await ui.send([check('mq-lyon-1', 'queue', 3, '15,000 messages waiting')]);
    await expect.poll(() => page.locator('tbody tr.row td.col-output').allInnerTexts()).toEqual(['consumer gone', '15,000 messages waiting']);
    expect(await page.locator('tbody tr.row td.col-state').allInnerTexts()).toEqual(['critical', 'critical']);
    // Back to OK: no longer matches the state filter, so it leaves the list.
    await ui.send([check('mq-lyon-2', 'queue', 0, 'consumer back')]);
    await expect.poll(() => page.locator('tbody tr.row td.col-component').allInnerTexts()).toEqual(['mq-lyon-1']);
    expect(await page.locator('.toolbar .count').innerText()).toMatch(/^1 alarm\b/);

    expect(reads.count).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  }, 60_000);

  it('shows a change made before the list\'s stream opened, once it opens', async () => {
    const streams = '**/api/v2/alarms/stream**';
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(streams, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(`${url}/?q=web-paris-2`);
      // The stream is held back: after a short wait for it, the list is read all the same.
      await expect.poll(() => page.locator('tbody tr.row td.col-output').allInnerTexts()).toEqual(['response time 2.1 s']);
      expect(await page.locator('p.live').innerText()).not.toBe('Live');
      await ui.send([check('web-paris-2', 'http', 2, 'response time 4.8 s')]);
      await expect.poll(async () => JSON.stringify((await ui.call('GET', '/alerts/get-alarms?search=web-paris-2')).body)).toContain('response time 4.8 s');
      release();
      await expect.poll(() => page.locator('p.live').innerText()).toBe('Live');
      await expect.poll(() => page.locator('tbody tr.row td.col-output').allInnerTexts()).toEqual(['response time 4.8 s']);
    } finally {
      release();
      await page.unroute(streams);
    }
  }, 60_000);

  it('keeps up with a flood of changes: the page is read again for those off it, one read at a time, and keeps its size', async () => {
    await ui.send(Array.from({ length: 60 }, (_, i) => check(`flood-${i}`, 'svc', 2, 'first')));
    await page.goto(`${url}/?q=flood&size=50`);
    await expect.poll(() => page.locator('.toolbar .count').innerText()).toMatch(/^60 alarms\b/);
    await expect.poll(() => page.locator('p.live').innerText()).toBe('Live');
    // Every read of the list from now on, and how many ran at once.
    const reads = { count: 0, running: 0, mostAtOnce: 0, failed: 0 };
    const isListRead = (request: { url: () => string }) => new URL(request.url()).pathname === '/alerts/get-alarms';
    page.on('request', (request) => {
      if (!isListRead(request)) return;
      reads.count += 1;
      reads.running += 1;
      reads.mostAtOnce = Math.max(reads.mostAtOnce, reads.running);
    });
    page.on('requestfinished', (request) => {
      if (isListRead(request)) reads.running -= 1;
    });
    page.on('requestfailed', (request) => {
      if (!isListRead(request)) return;
      reads.running -= 1;
      reads.failed += 1;
    });

    // A new alarm goes on top of the first page, which keeps its 50 rows (plus the header row), with no read.
    await ui.send([check('flood-new', 'svc', 3, 'new')]);
    await expect.poll(() => page.locator('tbody tr.row td.col-component').first().innerText()).toBe('flood-new');
    expect(await page.locator('.toolbar .count').innerText()).toMatch(/^61 alarms\b/);
    expect(await page.locator('table.alarm-table').getAttribute('aria-rowcount')).toBe('51');
    expect(reads.count).toBe(0);

    // Every alarm changes five times, 11 of them off the first page each time.
    for (let round = 0; round < 5; round++) await ui.send(Array.from({ length: 61 }, (_, i) => check(i === 60 ? 'flood-new' : `flood-${i}`, 'svc', 1 + (round % 3), `round ${round}`)));
    await expect.poll(async () => new Set(await page.locator('tbody tr.row td.col-output').allInnerTexts())).toEqual(new Set(['round 4']));
    expect(await page.locator('.toolbar .count').innerText()).toMatch(/^61 alarms\b/);
    expect(await page.locator('table.alarm-table').getAttribute('aria-rowcount')).toBe('51');
    expect(reads.count).toBeGreaterThan(0);
    expect(reads.mostAtOnce).toBe(1);
    expect(reads.failed).toBe(0);
  }, 90_000);

  it('acknowledges a selection and reports the alarm that failed; a write without the CSRF token is refused', async () => {
    await page.goto(`${url}/?q=paris`);
    await expect.poll(() => rows().count()).toBe(4);
    // Keyboard: the page's select-all box with Space.
    await page.getByRole('checkbox', { name: 'Select every alarm of the page' }).focus();
    await page.keyboard.press('Space');
    const actions = page.getByRole('group', { name: 'Actions on the 4 selected alarms' });
    await actions.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await page.getByRole('textbox', { name: 'Comment' }).fill('on it');
    await ui.expectAccessible('alarm list with a selection and the action form');
    await ui.checkEverySize('alarm-list-selection');
    // Its entity disabled meanwhile: acknowledging that alarm fails, the others go through.
    expect((await ui.call('POST', '/api/v2/entities/disable', { _id: 'cpu/db-paris-1' })).status).toBe(200);
    await page.getByRole('button', { name: 'Acknowledge: 4 alarms' }).click();
    await expect
      .poll(() => page.getByRole('status').innerText(), { timeout: 15_000 })
      .toMatch(/^3 acknowledged, 1 failed: cpu\/db-paris-1 — Cannot ack alarm \S+: entity cpu\/db-paris-1 is disabled$/);
    expect((await ui.call('POST', '/api/v2/entities/enable', { _id: 'cpu/db-paris-1' })).status).toBe(200);
    await page.goto(`${url}/?q=paris&columns=component,resource,ack&sort=resource:asc`);
    await expect.poll(() => page.locator('tbody tr.row td.col-ack').allInnerTexts()).toEqual(['', 'by root', 'by root', 'by root']);

    const forged = await page.evaluate(async () => {
      const res = await fetch('/api/v2/bulk/alarms/ackremove', { method: 'PUT', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: '[]' });
      return { status: res.status, body: (await res.json()) as { description: string } };
    });
    expect(forged.status).toBe(403);
    expect(forged.body.description).toMatch(/x-csrf-token header must carry the session's CSRF token/);
  }, 90_000);

  it('comments an alarm from its details, and the comment shows in its timeline', async () => {
    await page.goto(`${url}/?q=checkout`);
    await page.getByRole('button', { name: /^Details of/ }).first().click();
    const details = page.getByRole('complementary');
    await expect.poll(() => details.locator('h2').innerText()).toBe('http/web-paris-3');
    await details.getByRole('group', { name: 'Actions on this alarm' }).getByRole('button', { name: 'Comment', exact: true }).click();
    await details.getByRole('textbox', { name: 'Comment' }).fill('Checkout team called');
    await ui.expectAccessible('alarm details with the comment form');
    await details.getByRole('button', { name: 'Comment: 1 alarm' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('1 commented');
    await expect.poll(() => details.locator('.timeline li').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/comment[\s\S]*by root[\s\S]*Checkout team called/)]));

    await details.getByRole('button', { name: 'Snooze', exact: true }).click();
    await details.getByLabel('Duration').fill('2');
    await details.getByRole('button', { name: 'Snooze: 1 alarm' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('1 snoozed');
    await expect.poll(() => details.locator('.timeline li').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^.*snooze/)]));
  }, 60_000);

  it('puts the selected alarms\' entities into maintenance', async () => {
    await page.goto(`${url}/?q=web-paris-2`);
    await expect.poll(() => rows().count()).toBe(1);
    await page.getByRole('checkbox', { name: 'Select http/web-paris-2' }).check();
    await page.getByRole('group', { name: 'Actions on the 1 selected alarm' }).getByRole('button', { name: 'Maintenance', exact: true }).click();
    await page.getByLabel('Reason').fill('Replacing the load balancer');
    await page.getByLabel('Duration').fill('3');
    await ui.expectAccessible('maintenance form');
    await page.getByRole('button', { name: 'Maintenance: 1 alarm' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('1 put into maintenance');
    const pbehaviors = (await ui.call('GET', `/api/v2/pbehavior_byeid/${encodeURIComponent('http/web-paris-2')}`)).body as { name: string; type_: string; reason: string; tstop: number; tstart: number }[];
    expect(pbehaviors).toEqual([expect.objectContaining({ name: 'Maintenance from the console', type_: 'Maintenance', reason: 'Replacing the load balancer' })]);
    expect((pbehaviors[0]?.tstop ?? 0) - (pbehaviors[0]?.tstart ?? 0)).toBe(3 * 3600);
  }, 60_000);

  it('acts on one alarm from its row\'s menu, with the keyboard', async () => {
    await page.goto(`${url}/?q=db-paris-1&columns=component,resource,ticket&sort=resource:asc`);
    await expect.poll(() => page.locator('tbody tr.row td.col-resource').allInnerTexts()).toEqual(['cpu', 'disk']);
    const menuButton = page.getByRole('button', { name: 'Actions on disk/db-paris-1' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Actions on disk/db-paris-1' });
    await menu.waitFor();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(focused).toBe('Acknowledge');
    await ui.expectAccessible('row action menu');
    // Escape closes it and gives the focus back to the row's button.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('⋯');
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');

    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('End');
    await expect.poll(focused).toBe('Maintenance');
    for (const expected of ['Done', 'Comment', 'Ticket']) {
      await page.keyboard.press('ArrowUp');
      await expect.poll(focused).toBe(expected);
    }
    await page.keyboard.press('Enter');
    // The same form as the selection's, for this one alarm, with the focus in its first field.
    const form = page.getByRole('form', { name: 'Ticket: 1 alarm' });
    await form.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.closest('label')?.firstChild?.textContent)).toBe('Ticket');
    await page.keyboard.type('INC-4242');
    await ui.expectAccessible('ticket form from a row');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').innerText()).toBe('1 ticketed');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('tbody tr.row td.col-ticket').allInnerTexts()).toEqual(['', 'INC-4242']);

    if (screenshotsWanted) {
      for (const theme of ['light', 'dark'] as const) {
        await ui.setTheme(theme);
        for (const [width, height, suffix] of [[1280, 720, ''], [390, 844, '-phone']] as const) {
          await page.setViewportSize({ width, height });
          await menuButton.click();
          await menu.waitFor();
          await ui.screenshot(`alarm-list-row-menu${suffix}-${theme}`);
          await page.keyboard.press('Escape');
          await menu.waitFor({ state: 'detached' });
        }
      }
      await page.setViewportSize({ width: 1280, height: 720 });
      await ui.setTheme('light');
    }
  }, 60_000);

  it('pauses a watcher and resumes it from its tile, and shows its dependencies with their alarms', async () => {
    const watcher = (id: string, name: string, depends: string[]) => ui.call('POST', '/api/v2/entities', { _id: id, name, type: 'watcher', enabled: true, depends });
    expect((await watcher('shop', 'Web shop', ['http/web-paris-3', 'disk/db-paris-1'])).status).toBe(200);
    expect((await watcher('messaging', 'Messaging', ['queue/mq-lyon-1'])).status).toBe(200);
    expect((await watcher('intranet', 'Intranet', [])).status).toBe(200);
    // Under maintenance already: its tile shows the pause.
    const maintenance = await ui.call('POST', '/api/v2/bulk/entity-pbehaviors', [{ entity: 'messaging', name: 'Broker upgrade', type: 'Maintenance' }]);
    expect((maintenance.body as { status: number }[])[0]?.status).toBe(200);
    await page.goto(`${url}/weather`);
    await expect.poll(() => page.locator('li.tile-pause').allInnerTexts()).toEqual([expect.stringContaining('Messaging')]);
    const tile = page.locator('li.tile', { hasText: 'Web shop' });
    await expect.poll(() => tile.count()).toBe(1);
    await expect.poll(() => tile.getAttribute('class')).not.toContain('tile-pause');
    await ui.checkEverySize('weather');

    await page.getByRole('button', { name: 'Pause Web shop' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Web shop paused');
    await expect.poll(() => tile.getAttribute('class')).toContain('tile-pause');
    await ui.expectAccessible('weather with a paused watcher');
    await page.getByRole('button', { name: 'Resume Web shop' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Web shop resumed');
    await expect.poll(() => tile.getAttribute('class')).not.toContain('tile-pause');
    expect((await ui.call('GET', '/api/v2/pbehavior_byeid/shop')).body).toEqual([]);

    await tile.getByRole('link').click();
    await expect.poll(() => page.locator('table.simple tbody tr').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^disk\s+critical/), expect.stringMatching(/^http\s+critical/)]),
    );
    await ui.expectAccessible('weather dependencies');
  }, 120_000);

  it('shows a broadcast message pushed while the page is open, without reading the list again', async () => {
    await page.goto(`${url}/health`);
    await expect.poll(() => page.locator('table.simple tbody tr').count()).toBeGreaterThan(0);
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v2/broadcast-message/active') reads.push(request.url());
    });
    const now = Math.floor(Date.now() / 1000);
    const message = await ui.call('POST', '/api/v2/broadcast-message', { message: 'Network change at 23:00', color: '#1a5fb4', start: now - 60, end: now + 3600 });
    expect(message.status).toBe(200);
    await expect.poll(() => page.getByRole('region', { name: 'Broadcast messages' }).innerText()).toBe('Network change at 23:00');
    expect(reads).toEqual([]);
    await ui.expectAccessible('banner');
  }, 60_000);

  it('saves the current view under a name, applies, renames and deletes it', async () => {
    await page.goto(`${url}/?state=3&q=paris`);
    await expect.poll(() => rows().count()).toBe(2);
    await page.locator('summary', { hasText: 'Saved views' }).click();
    await page.getByLabel('Name of this view').fill('Critical in Paris');
    await page.getByRole('button', { name: 'Save view' }).click();
    const saved = page.getByRole('list', { name: 'Saved views' });
    await expect.poll(() => saved.getByRole('link').allInnerTexts()).toEqual(['Critical in Paris']);
    await ui.expectAccessible('saved views');

    await page.goto(`${url}/`);
    await expect.poll(() => rows().count()).toBeGreaterThan(2);
    await page.locator('summary', { hasText: 'Saved views' }).click();
    await saved.getByRole('link', { name: 'Critical in Paris' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?state=3&q=paris');
    await expect.poll(() => rows().count()).toBe(2);

    await page.getByRole('button', { name: 'Rename Critical in Paris' }).click();
    await page.getByLabel('New name').fill('Paris, critical');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect.poll(() => saved.getByRole('link').allInnerTexts()).toEqual(['Paris, critical']);
    await page.getByRole('button', { name: 'Delete Paris, critical' }).click();
    await expect.poll(() => saved.getByRole('link').count()).toBe(0);

    // Each write was audited with the user.
    const audit = (await ui.call('GET', `/api/v2/audit?route=${encodeURIComponent('/api/v2/saved-filters')}`)).body as { data: { method: string; user: { name: string } }[] };
    expect(audit.data.map((r) => `${r.method} ${r.user.name}`).sort()).toEqual(['DELETE root', 'POST root', 'PUT root']);
  }, 60_000);

  it('shows a viewer no write buttons, and the server refuses the writes if forced', async () => {
    await ui.signIn(viewer.name, viewer.password, '/?q=paris');
    await expect.poll(() => rows().count()).toBe(4);
    await page.getByRole('checkbox', { name: 'Select every alarm of the page' }).check();
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Maintenance' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Actions on / }).count()).toBe(0);
    await page.getByRole('link', { name: 'Weather' }).click();
    await expect.poll(() => page.locator('li.tile').count()).toBe(3);
    expect(await page.getByRole('button', { name: /^Pause/ }).count()).toBe(0);
    await ui.expectAccessible('weather, viewer');

    // With the session's CSRF token, as the console would send it: the right is what is missing.
    const forced = await page.evaluate(async () => {
      const token = /(?:^|; )vigie_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      const res = await fetch('/api/v2/bulk/alarms/ack', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': decodeURIComponent(token) },
        body: '[]',
      });
      return res.status;
    });
    expect(forced).toBe(403);
  }, 60_000);
});
