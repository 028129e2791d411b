import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defineFeature } from '@vigie/kernel';
import { consoleExtensionsPoint } from '@vigie/console';
import { describeWithService } from '@vigie/kernel-testing';
import { chromiumInstalled } from '@vigie/testkit/browser';
import { check, fiveAlarms, rootPassword, startConsole, viewer, type ConsoleUnderTest } from './fixtures/console-browser.js';

/** A plugin as a deployer composes one: a page, an alarm-list column and action, from a module it serves. */
const pluginModule = `export default {
  pages: { hello: (element, host) => { host.api('/api/v2/account/me').then((me) => { element.textContent = 'Hello ' + me.name; }); } },
  alarmColumns: { shout: (alarm) => alarm.v.component.toUpperCase() },
  alarmActions: { count: (alarms) => alarms.length + ' alarms counted' },
};
`;
const pluginFeature = defineFeature({
  id: 'console-plugin',
  kernel: '^0.1.0',
  dependsOn: ['console'],
  register(f) {
    f.route({
      method: 'GET',
      path: '/api/v2/console-plugin/module.js',
      right: 'console:read',
      summary: 'The console module of the test plugin',
      responses: { 200: { description: 'JavaScript' } },
      handler: (ctx) => {
        ctx.type = 'text/javascript';
        return pluginModule;
      },
    });
    f.extend(consoleExtensionsPoint, () => ({
      id: 'console-plugin',
      module: '/api/v2/console-plugin/module.js',
      pages: [{ path: 'hello', title: 'Hello plugin' }],
      alarmColumns: [{ id: 'shout', label: 'Shout' }],
      alarmActions: [{ id: 'count', label: 'Count' }],
    }));
    // A plugin whose module is missing: the console goes on without it.
    f.extend(consoleExtensionsPoint, () => ({ id: 'broken-plugin', module: '/api/v2/console-plugin/missing.js', pages: [{ path: 'broken', title: 'Broken' }] }));
  },
});

/** The operators' console on the reference server as deployers run it, driven by Chromium with real events. */
describeWithService('chromium', chromiumInstalled, () => {
  let ui: ConsoleUnderTest;
  let url: string;
  let page: Page;

  beforeAll(async () => {
    ui = await startConsole({ alarms: fiveAlarms, extraFeatures: [pluginFeature] });
    ({ url, page } = ui);
  }, 60_000);
  afterAll(() => ui?.stop());

  it('sends a visitor to the login page and back to the view they asked for after signing in', async () => {
    await page.goto(`${url}/?state=3`);
    await page.waitForURL(/\/login\?next=/);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/?state=3');
    await ui.expectAccessible('login page');
    await page.getByLabel('User name').fill('root');
    await page.getByLabel('Password').fill(rootPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}/?state=3`);
    // The view in the URL filters the list: only the two critical alarms.
    await expect.poll(() => page.locator('tbody tr.row').count()).toBe(2);
    expect(await page.locator('.who').innerText()).toBe('root');
  });

  it('lists the alarms with the columns, sort and filters the user picks, all kept in the URL', async () => {
    await page.goto(`${url}/`);
    await expect.poll(() => page.locator('tbody tr.row').count()).toBe(5);
    await ui.expectAccessible('alarm list');
    await ui.screenshot('alarm-list-light');

    const chooser = page.locator('summary', { hasText: 'Columns' });
    await chooser.click();
    await page.getByRole('checkbox', { name: 'Connector' }).check();
    await chooser.click();
    await expect.poll(() => page.locator('thead th').allInnerTexts()).toContain('Connector');
    expect(new URL(page.url()).searchParams.get('columns')).toBe('state,status,component,resource,output,updated,connector');

    // A click sorts by a column alone; shift-click adds further keys.
    await page.getByRole('button', { name: 'Component' }).click();
    await page.getByRole('button', { name: 'Resource' }).click({ modifiers: ['Shift'] });
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('component:desc,resource:desc');
    await expect.poll(() => page.locator('tbody tr.row td.col-component').allInnerTexts()).toEqual(['web-paris-3', 'web-paris-2', 'mq-lyon-1', 'db-paris-1', 'db-paris-1']);
    await expect.poll(() => page.locator('tbody tr.row td.col-resource').allInnerTexts()).toEqual(['http', 'http', 'queue', 'disk', 'cpu']);
    await page.getByRole('button', { name: /^Resource/ }).click({ modifiers: ['Shift'] });
    await expect.poll(() => page.locator('tbody tr.row td.col-resource').allInnerTexts()).toEqual(['http', 'http', 'queue', 'cpu', 'disk']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('component:desc,resource:asc');

    await page.getByLabel('Search').fill('paris');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('tbody tr.row').count()).toBe(4);
    await page.getByRole('checkbox', { name: 'major' }).check();
    await expect.poll(() => page.locator('tbody tr.row td.col-output').allInnerTexts()).toEqual(['load average 12.4']);
    expect(new URL(page.url()).searchParams.get('state')).toBe('2');

    // The same link in a new tab shows the same view.
    const shared = page.url();
    const other = await ui.browser.context.newPage();
    await other.goto(shared);
    await expect.poll(() => other.locator('tbody tr.row td.col-output').allInnerTexts()).toEqual(['load average 12.4']);
    await other.close();
  });

  it('opens the details of an alarm with its timeline and entity, and closes them with Escape', async () => {
    await page.goto(`${url}/?q=checkout`);
    await page.getByRole('button', { name: /^Details of/ }).first().click();
    const details = page.getByRole('complementary');
    await expect.poll(() => details.locator('h2').innerText()).toBe('http/web-paris-3');
    await expect.poll(() => details.locator('.timeline li').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('stateinc critical')]));
    expect(await details.locator('.fields').last().innerText()).toContain('web-paris-3');
    expect(new URL(page.url()).searchParams.get('open')).toBeTruthy();
    // At 1280 pixels the panel is a drawer over the list: the list keeps its width and does not scroll sideways.
    expect(await page.locator('.table-scroll').evaluate((list) => list.scrollWidth - list.clientWidth)).toBeLessThanOrEqual(0);
    await ui.checkEverySize('alarm-details');
    await page.keyboard.press('Escape');
    await expect.poll(() => details.count()).toBe(0);
  });

  it('shows a new alarm without a reload', async () => {
    await page.goto(`${url}/?q=lyon`);
    await expect.poll(() => page.locator('tbody tr.row').count()).toBe(1);
    await ui.send([check('mq-lyon-2', 'queue', 3, 'consumer gone')]);
    await expect.poll(() => page.locator('tbody tr.row td.col-component').allInnerTexts()).toEqual(expect.arrayContaining(['mq-lyon-2']));
  });

  it('has the weather and health pages and the broadcast banner, usable in both themes and on a phone', async () => {
    const now = Math.floor(Date.now() / 1000);
    const message = await ui.call('POST', '/api/v2/broadcast-message', { message: 'Maintenance of the Paris database tonight at 22:00', color: '#b00020', start: now - 60, end: now + 3600 });
    expect(message.status).toBe(200);
    await page.goto(`${url}/weather`);
    await expect.poll(() => page.getByRole('region', { name: 'Broadcast messages' }).innerText()).toBe('Maintenance of the Paris database tonight at 22:00');
    await expect.poll(() => page.getByRole('heading', { name: 'Service weather' }).count()).toBe(1);
    await ui.expectAccessible('weather');
    await page.getByRole('link', { name: 'Health' }).click();
    await expect.poll(() => page.locator('table.simple tbody tr').count()).toBe(5);
    await ui.expectAccessible('health');

    await page.goto(`${url}/`);
    await expect.poll(() => page.locator('tbody tr.row').count()).toBe(6);
    await ui.setTheme('dark');
    await ui.expectAccessible('alarm list, dark');
    await ui.screenshot('alarm-list-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await ui.expectAccessible('alarm list, phone, dark');
    // Each row is a card of three lines: every column shows without scrolling sideways.
    await expect.poll(() => page.locator('.table-scroll').evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
    const card = page.locator('tbody tr.row', { hasText: 'consumer gone' });
    expect(await card.locator('td.col-output').innerText()).toBe('consumer gone');
    const [cardBox, outputBox] = await Promise.all([card.boundingBox(), card.locator('td.col-output').boundingBox()]);
    expect(outputBox!.x + outputBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width + 1);
    await ui.screenshot('alarm-list-phone-dark');
    // On a phone the filters fold behind a button.
    expect(await page.getByRole('group', { name: 'State' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Filters' }).click();
    expect(await page.getByRole('group', { name: 'State' }).isVisible()).toBe(true);
    await ui.setTheme('light');
    await ui.screenshot('alarm-list-phone-light');
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it('shows the page, column and action of a plugin, and goes on without a plugin whose module is missing', async () => {
    await page.goto(`${url}/?q=checkout`);
    await page.getByRole('link', { name: 'Hello plugin' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('Hello root');
    expect(await page.getByRole('link', { name: 'Broken' }).count()).toBe(0);

    await page.goto(`${url}/?q=checkout&columns=state,component,console-plugin:shout`);
    await expect.poll(() => page.locator('tbody tr.row td.col-console-plugin\\:shout').allInnerTexts()).toEqual(['WEB-PARIS-3']);
    await page.getByRole('checkbox', { name: 'Select http/web-paris-3' }).check();
    await page.getByRole('button', { name: 'Count' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('1 alarms counted');
    // The plugin's action is in a row's menu too, run on that row's alarm alone, whatever the selection holds.
    await page.goto(`${url}/?q=paris`);
    await expect.poll(() => page.locator('tbody tr.row').count()).toBe(4);
    await page.getByRole('checkbox', { name: 'Select every alarm of the page' }).check();
    await page.getByRole('button', { name: 'Count' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('4 alarms counted');
    await page.getByRole('button', { name: 'Actions on http/web-paris-3' }).click();
    await page.getByRole('menu', { name: 'Actions on http/web-paris-3' }).getByRole('menuitem', { name: 'Count' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('1 alarms counted');
    expect(await page.getByRole('menu').count()).toBe(0);
  });

  it('says so when the session ends, and signs in again to the same page', async () => {
    await page.goto(`${url}/health`);
    await expect.poll(() => page.locator('table.simple tbody tr').count()).toBe(5);
    // Signed out elsewhere (another tab): the next call of this page gets 401.
    await page.evaluate(() => fetch('/logout'));
    await page.getByRole('link', { name: 'Weather' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Your session has ended' }).count()).toBe(1);
    await ui.expectAccessible('session ended');
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.getByLabel('User name').fill('root');
    await page.getByLabel('Password').fill(rootPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}/weather`);
    await page.getByRole('link', { name: 'Access' }).click();
    await expect.poll(() => page.locator('section table tbody th').allInnerTexts()).toEqual(expect.arrayContaining(['root', 'watch-only', 'viewer (built in)']));
    await ui.expectAccessible('access');
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(`${url}/login`);
  });

  it('shows a viewer no administration, and the server refuses it if forced', async () => {
    await ui.signIn(viewer.name, viewer.password, '/access');
    // A viewer manages their own API keys (`account:own`) and sees neither users nor roles.
    await expect.poll(() => page.locator('main h2').allInnerTexts()).toEqual(['My API keys']);
    expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);
    expect(await page.evaluate(async () => (await fetch('/api/v2/users', { headers: { 'x-requested-with': 'XMLHttpRequest' } })).status)).toBe(403);
    // Reading is a viewer's right: the list works.
    await page.getByRole('link', { name: 'Alarms' }).click();
    await expect.poll(() => page.locator('tbody tr.row').count()).toBe(6);
  });
});
