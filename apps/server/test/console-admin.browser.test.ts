import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithService } from '@vigie/kernel-testing';
import { chromiumInstalled } from '@vigie/testkit/browser';
import { check, rootPassword, startConsole, viewer, type ConsoleUnderTest } from './fixtures/console-browser.js';

/** The console's administration pages on the reference server, driven by Chromium against its real routes. */
describeWithService('chromium', chromiumInstalled, () => {
  let ui: ConsoleUnderTest;
  let url: string;
  let page: Page;

  const openAlarmsOf = async (component: string) => {
    const answer = (await ui.call('GET', `/alerts/get-alarms?search=${component}`)).body as { data: { total: number }[] };
    return answer.data[0]?.total ?? 0;
  };
  /** The RJSF field group holding the control whose id ends with `_<name>`. */
  const fieldGroup = (name: string) => page.locator(`.form-group:has([id$="_${name}"])`).last();

  beforeAll(async () => {
    ui = await startConsole();
    ({ url, page } = ui);
    await ui.signIn('root', rootPassword, '/admin');
  }, 60_000);
  afterAll(() => ui?.stop());

  it('creates an event filter through the form generated from the OpenAPI schema; the rule then drops matching events', async () => {
    await page.goto(`${url}/admin`);
    await page.getByRole('link', { name: 'Event filters' }).click();
    await page.getByRole('button', { name: 'New', exact: true }).click();
    // The fields carry human titles and help texts, not the API's names.
    const type = page.getByLabel('Rule type');
    await type.waitFor();
    const labels = await page.locator('.editor label').allInnerTexts();
    expect(labels.filter((label) => /\b[a-z]+_[a-z_]+\b/.test(label))).toEqual([]);
    expect(labels.map((label) => label.replace(/\*|\(JSON\)/g, '').trim())).toEqual(expect.arrayContaining(['After success', 'Enrichment actions', 'Event patterns', 'Priority']));
    expect(await fieldGroup('on_success').innerText()).toContain('Enrichment only: pass (default), break or drop.');

    // Checked in the browser against the schema: the required type is missing.
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fieldGroup('type').innerText()).toContain('is required');

    // Checked by the server: an enrichment needs actions, and the message lands at that field.
    await type.selectOption('enrichment');
    await page.getByLabel('Event patterns').fill('[{"component": "lab-1"}]');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fieldGroup('actions').innerText()).toContain('The actions field is required for enrichment rules.');
    expect(await fieldGroup('patterns').innerText()).not.toContain('required');
    await ui.expectAccessible('event filter form with errors');

    await type.selectOption('drop');
    await page.getByLabel('Description').fill('Drop the lab machines');
    await page.getByRole('button', { name: 'Preview impact' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Would apply to' }).innerText()).toMatch(/Would apply to \d+ events/);
    await ui.checkEverySize('rule-form');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('table.resource-list tbody tr').allInnerTexts()).toEqual([expect.stringContaining('Drop the lab machines')]);
    await ui.expectAccessible('event filter list');

    // The rule applies to events sent over HTTP: the lab's event is dropped, the other one raises an alarm.
    await ui.send([check('lab-1', 'disk', 3, 'disk full'), check('web-1', 'disk', 3, 'disk full')]);
    await expect.poll(() => openAlarmsOf('web-1')).toBe(1);
    expect(await openAlarmsOf('lab-1')).toBe(0);
  }, 90_000);

  it('puts a weekly maintenance on the calendar with a preview of its next occurrences', async () => {
    await page.goto(`${url}/calendar`);
    await page.getByRole('button', { name: 'New maintenance' }).click();
    await page.getByLabel('Name').fill('Disk replacement');
    // A window around now (from the start of this hour, two hours long): the first occurrence is under way, so the
    // preview lists all three and the calendar's current week shows it, whatever the day and time the test runs.
    const [starts, ends] = await page.evaluate(() => {
      const local = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}T${String(d.getHours()).padStart(2, '0')}:00`;
      const start = new Date();
      start.setMinutes(0, 0, 0);
      return [local(start), local(new Date(start.getTime() + 2 * 3600_000))];
    });
    await page.getByLabel(/^Starts/).fill(starts);
    await page.getByLabel(/^Ends/).fill(ends);
    await page.getByLabel('Entities (a filter as JSON)').fill('{"component": "web-1"}');
    await page.getByLabel('Frequency').selectOption('WEEKLY');
    await page.getByLabel('Repeats until').selectOption('count');
    await page.getByLabel('Times', { exact: true }).fill('3');
    expect(await page.locator('.rrule code').innerText()).toBe('FREQ=WEEKLY;COUNT=3');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect.poll(() => page.locator('.occurrences li').count()).toBe(3);
    await ui.expectAccessible('maintenance editor');
    await page.getByRole('button', { name: 'Save' }).click();
    // One event, counted by the part where it starts: a window that crosses midnight is drawn in two parts.
    await expect.poll(() => page.locator('.fc-event.fc-event-start', { hasText: 'Disk replacement' }).count()).toBe(1);
    await ui.expectAccessible('calendar week view');
    await ui.checkEverySize('calendar');
    await page.getByRole('button', { name: 'Month' }).click();
    await expect.poll(() => page.locator('.fc-event', { hasText: 'Disk replacement' }).count()).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('creates a user and an API key whose secret is shown once', async () => {
    await page.goto(`${url}/access`);
    await page.getByRole('button', { name: 'New user' }).click();
    await page.getByLabel('User name').fill('night-operator');
    await page.getByLabel('Password').fill('a long password');
    await page.locator('.form-group:has([id$="_roles"]) .btn-add').click();
    await page.locator('input[id$="_roles_0"]').fill('operator');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('section[aria-labelledby="users-title"] tbody th').allInnerTexts()).toContain('night-operator');
    await ui.expectAccessible('access page');
    await ui.checkEverySize('users');

    await page.getByRole('button', { name: 'New API key' }).click();
    await page.locator('input[id$="_label"]').fill('ci pipeline');
    await page.getByRole('button', { name: 'Create' }).click();
    const secret = await page.locator('.key-secret').innerText();
    expect(secret.length).toBeGreaterThan(20);
    // The key works, and it is the only time the console shows it.
    const me = await fetch(`${url}/api/v2/account/me`, { headers: { 'x-canopsis-authkey': secret } });
    expect(me.status).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => page.locator('section[aria-labelledby="keys-title"] tbody th').allInnerTexts()).toEqual(['ci pipeline']);
    await page.reload();
    await page.locator('section[aria-labelledby="keys-title"] tbody th').first().waitFor();
    expect(await page.content()).not.toContain(secret);
  }, 90_000);

  it('shows those writes in the audit log, filtered by the server', async () => {
    await page.goto(`${url}/audit`);
    await expect.poll(() => page.locator('table.audit tbody th').allInnerTexts()).toEqual(
      expect.arrayContaining(['POST /api/v2/eventfilter/rules', 'POST /api/v2/pbehavior', 'POST /api/v2/users', 'POST /api/v2/api-keys']),
    );
    await page.getByLabel('Path contains').fill('api-keys');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('table.audit tbody th').allInnerTexts()).toEqual(['POST /api/v2/api-keys']);
    await ui.expectAccessible('audit log');
    // On a phone the filters stay on the page (only the alarm list folds its own behind a button).
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.getByLabel('Path contains').isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 720 });
  }, 60_000);

  it('follows a context-graph import to its end', async () => {
    await page.goto(`${url}/import`);
    await page.getByLabel(/^Document/).fill(JSON.stringify({ cis: [{ _id: 'imported-1', name: 'imported-1', type: 'component', action: 'create' }], links: [] }));
    await page.getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => page.locator('.import-progress [role="status"]').innerText()).toMatch(/Status: done/);
    await ui.expectAccessible('import page');
  }, 60_000);

  it("edits a custom role's rights and a user's roles: the user then opens the audit log it was refused", async () => {
    expect((await ui.call('POST', '/api/v2/roles', { name: 'night-desk', description: 'Night desk', rights: ['alarms:read', 'console:read'] })).status).toBe(200);
    expect((await ui.call('POST', '/api/v2/users', { name: 'night-auditor', password: 'auditor password', roles: ['viewer'] })).status).toBe(200);

    // As a viewer, without audit:read, the audit log is refused.
    await ui.signIn('night-auditor', 'auditor password', '/admin');
    await page.goto(`${url}/audit`);
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('the right audit:read is required');

    await ui.signIn('root', rootPassword, '/admin');
    await page.goto(`${url}/access`);
    const roleRows = page.locator('section[aria-labelledby="roles-title"] tbody tr');
    // Built-in roles are shown without an edit button.
    expect(await roleRows.filter({ hasText: 'admin' }).first().getByRole('button').count()).toBe(0);
    await page.getByRole('button', { name: 'Edit role night-desk' }).click();
    const roleEditor = page.getByRole('region', { name: 'Edit role night-desk' });
    await roleEditor.getByRole('group', { name: 'audit' }).getByRole('checkbox', { name: 'audit:read' }).check();
    await roleEditor.getByLabel('Description').fill('Night desk, reads the audit log');
    await ui.expectAccessible('role editor');
    await roleEditor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => roleRows.filter({ hasText: 'night-desk' }).innerText()).toContain('audit:read');
    expect(await roleRows.filter({ hasText: 'night-desk' }).innerText()).toContain('Night desk, reads the audit log');

    // The user's roles: viewer replaced by night-desk, a mail added, the server's refusal shown next to the form.
    await page.getByRole('button', { name: 'Edit night-auditor' }).click();
    const userEditor = page.getByRole('region', { name: 'Edit user night-auditor' });
    await userEditor.getByRole('checkbox', { name: 'night-desk' }).check();
    await userEditor.getByRole('checkbox', { name: 'viewer' }).uncheck();
    await userEditor.getByLabel('Mail').fill('night@example.org');
    await userEditor.getByLabel(/^New password/).fill('short');
    await userEditor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => userEditor.getByRole('alert').innerText()).toContain('Not saved: a password has at least');
    await ui.expectAccessible('user editor with an error');
    await userEditor.getByLabel(/^New password/).fill('another long password');
    await userEditor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('section[aria-labelledby="users-title"] tbody tr', { hasText: 'night-auditor' }).innerText()).toContain('night-desk');
    const stored = (await ui.call('GET', '/api/v2/users/night-auditor')).body as { roles: string[]; mail: string };
    expect(stored).toMatchObject({ roles: ['night-desk'], mail: 'night@example.org' });
    await ui.expectAccessible('access page after the edits');

    // The new password and the new rights, at the user's next sign-in.
    await ui.signIn('night-auditor', 'another long password', '/admin');
    await page.goto(`${url}/audit`);
    await expect.poll(() => page.locator('table.audit tbody th').allInnerTexts()).toEqual(expect.arrayContaining(['PUT /api/v2/roles/night-desk']));
    await ui.signIn('root', rootPassword, '/admin');
  }, 90_000);

  it('shows a viewer no write button, and the server refusing a page the viewer forces', async () => {
    await ui.signIn(viewer.name, viewer.password, '/admin');
    expect(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts()).not.toContain('Audit');
    await page.getByRole('link', { name: 'Event filters' }).click();
    await expect.poll(() => page.locator('table.resource-list tbody tr').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'New', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete)/ }).count()).toBe(0);
    await ui.expectAccessible('event filters, viewer');
    await page.goto(`${url}/calendar`);
    await page.locator('.fc-event').first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'New maintenance' }).count()).toBe(0);
    await page.goto(`${url}/audit`);
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('the right audit:read is required');
    await ui.expectAccessible('audit log refused');
  }, 60_000);
});
