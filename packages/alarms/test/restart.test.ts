// Actions by alarm id across a kill -9 of the server process: a change answered is a change stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEnginesServer, waitFor } from '@vigie/testkit';

const fixture = fileURLToPath(new URL('./fixtures/alarms-server.ts', import.meta.url));
const check = { event_type: 'check', source_type: 'resource', connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource: 'disk', state: 2, output: 'disk full' };

let installDir: string;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-alarm-actions-restart-'));
});
afterEach(() => rmSync(installDir, { recursive: true, force: true }));

describe('actions by alarm id across a kill -9', () => {
  it('keeps every change answered before the process was killed', async () => {
    const first = await startEnginesServer(installDir, fixture);
    expect((await first.request('POST', '/api/v2/event', check)).status).toBe(200);
    const alarm = await waitFor(() => first.alarm('disk/host'), 'the alarm');
    expect((await first.request('PUT', `/api/v2/alarms/${alarm._id}/ack`, { comment: 'mine' })).status).toBe(200);
    const bulk = await first.request('PUT', '/api/v2/bulk/alarms/comment', Array.from({ length: 20 }, (_, i) => ({ _id: alarm._id, comment: `note ${i}` })));
    expect(bulk.status).toBe(207);
    // Killed right after the last answer: nothing may be lost.
    first.kill('SIGKILL');
    await first.exited;

    const second = await startEnginesServer(installDir, fixture);
    try {
      const after = await waitFor(() => second.alarm('disk/host'), 'the alarm after the restart');
      expect(after.v.ack).toMatchObject({ _t: 'ack', m: 'mine', a: 'root' });
      expect(after.v.steps.filter((step: { _t: string }) => step._t === 'comment').map((step: { m: string }) => step.m)).toEqual(Array.from({ length: 20 }, (_, i) => `note ${i}`));
    } finally {
      second.kill('SIGTERM');
      await second.exited;
    }
  });
});
