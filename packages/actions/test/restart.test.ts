// A delayed action survives a real restart of the server process and runs once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSourceServer } from '@vigie/kernel-testing';
import { startEnginesServer, testAdmin, waitFor, type EnginesServer } from '@vigie/testkit';

const fixture = fileURLToPath(new URL('./fixtures/engines-server.ts', import.meta.url));

let installDir: string;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-actions-restart-'));
});
afterEach(() => rmSync(installDir, { recursive: true, force: true }));

const check = { event_type: 'check', source_type: 'resource', connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource: 'disk', state: 2, output: 'disk full' };

/** Waits for the robot's delayed ack on the alarm, then checks that a few more job polls do not add a second one. */
async function expectAckedOnce(server: EnginesServer): Promise<void> {
  const acked = await waitFor(async () => {
    const alarm = await server.alarm('disk/host');
    return alarm?.v.ack ? alarm : undefined;
  }, 'the delayed ack');
  expect(acked.v.ack).toMatchObject({ a: 'robot' });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const again = await server.alarm('disk/host');
  expect(again!.v.steps.filter((step: { _t: string }) => step._t === 'ack')).toHaveLength(1);
}

describe('delayed actions across a restart of the server process', () => {
  it('runs an action whose delay ends while the server is down once, after the restart', async () => {
    const first = await startEnginesServer(installDir, fixture, { logLevel: 'debug' });
    // A delay long enough that the first process is surely killed before it runs the job, even on a loaded machine
    // (a job it had started would stay locked by it for Agenda's lock lifetime).
    const delayMs = 8000;
    expect((await first.request('POST', '/api/v2/actions', { _id: 'late-ack', type: 'ack', delay: `${delayMs / 1000}s`, hook: { triggers: ['create'] }, parameters: { author: 'robot' } })).status).toBe(200);
    const sentAt = Date.now();
    expect((await first.request('POST', '/api/v2/event', check)).status).toBe(200);
    await waitFor(() => first.alarm('disk/host'), 'the alarm');
    // The trigger is handled after the alarm is stored: the kill must come once the delayed job is (durably) planned.
    await waitFor(() => first.lines.some((line) => line.includes('action delayed')), 'the delayed job to be planned');
    first.kill('SIGKILL');
    await first.exited;
    expect(Date.now() - sentAt).toBeLessThan(delayMs);
    // Down past the delay.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + delayMs + 500 - Date.now())));

    const second = await startEnginesServer(installDir, fixture);
    try {
      await expectAckedOnce(second);
    } finally {
      second.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });

  for (const crash of ['before-actions', 'after-actions'] as const) {
    const when = crash === 'before-actions' ? 'before the action engine handled the trigger' : 'after the delayed job was planned, before the event left the queue';
    it(`runs a delayed action once when the node dies after storing the alarm, ${when}`, async () => {
      const first = await startSourceServer(fixture, [installDir], { CRASH_ON_CREATE: crash });
      const authorization = `Basic ${Buffer.from(`${testAdmin.user}:${testAdmin.password}`).toString('base64')}`;
      const post = (path: string, body: unknown) =>
        fetch(`${first.url}${path}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/api/v2/actions', { _id: 'soon-ack', type: 'ack', delay: '2s', hook: { triggers: ['create'] }, parameters: { author: 'robot' } })).status).toBe(200);
      expect((await post('/api/v2/event', check)).status).toBe(200);
      // The fixture kills itself on the alarm's `create` trigger: the event is redelivered at the next start.
      await first.exited;

      const second = await startEnginesServer(installDir, fixture, { logLevel: 'debug' });
      try {
        await expectAckedOnce(second);
        // Planned by the second process only when the first died before planning it; never twice.
        const planned = second.lines.filter((line) => line.includes('action delayed')).length;
        expect(planned).toBe(crash === 'before-actions' ? 1 : 0);
        expect(second.lines.some((line) => line.includes('"msg":"action engine failed"'))).toBe(false);
      } finally {
        second.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
    });
  }
});
