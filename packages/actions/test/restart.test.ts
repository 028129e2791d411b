// A delayed action survives a real restart of the server process and runs once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEnginesServer, waitFor } from '@vigie/testkit';

const fixture = fileURLToPath(new URL('./fixtures/engines-server.ts', import.meta.url));

let installDir: string;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-actions-restart-'));
});
afterEach(() => rmSync(installDir, { recursive: true, force: true }));

const check = { event_type: 'check', source_type: 'resource', connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource: 'disk', state: 2, output: 'disk full' };

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
      const acked = await waitFor(async () => {
        const alarm = await second.alarm('disk/host');
        return alarm?.v.ack ? alarm : undefined;
      }, 'the delayed ack');
      expect(acked.v.ack).toMatchObject({ a: 'robot' });
      // Once: a few more job polls add nothing.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const again = await second.alarm('disk/host');
      expect(again!.v.steps.filter((step: { _t: string }) => step._t === 'ack')).toHaveLength(1);
    } finally {
      second.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });
});
