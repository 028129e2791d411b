// Heartbeats across real restarts of the server process: the last match is persisted, so a restart soon after a
// match raises no alarm, and an interval that ran out while the server was down is raised at once after the start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEnginesServer, waitFor, type EnginesServer } from '@vigie/testkit';
import { heartbeatAlarmResource } from '../src/index.js';

const fixture = fileURLToPath(new URL('./fixtures/heartbeats-server.ts', import.meta.url));

let installDir: string;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-heartbeats-restart-'));
});
afterEach(() => rmSync(installDir, { recursive: true, force: true }));

const pattern = { connector: 'nagios', connector_name: 'nagios-1' };
const entity = `${heartbeatAlarmResource(pattern)}/heartbeats`;
const check = { event_type: 'check', source_type: 'resource', connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource: 'disk', state: 0 };
const intervalMs = 6000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stop(server: EnginesServer, signal: NodeJS.Signals): Promise<void> {
  server.kill(signal);
  await server.exited;
}

describe('heartbeats across restarts of the server process', () => {
  it('neither raises a false alarm after a restart nor forgets an expiry that happened while down', async () => {
    const first = await startEnginesServer(installDir, fixture);
    expect((await first.request('POST', '/api/v2/heartbeat', { pattern, expected_interval: '6s', output: 'silent' })).status).toBe(200);
    await pause(1500);
    expect((await first.request('POST', '/api/v2/event', check)).status).toBe(200);
    const matchedAt = Date.now();
    await pause(500);
    await stop(first, 'SIGKILL');

    // Restarted well within the interval: no alarm until the interval since the last match has passed.
    const second = await startEnginesServer(installDir, fixture);
    const quietUntil = matchedAt + intervalMs - 1000;
    while (Date.now() < quietUntil) {
      expect(await second.alarm(entity)).toBeUndefined();
      await pause(250);
    }
    const raised = await waitFor(() => second.alarm(entity), 'the heartbeat alarm');
    expect(raised.v).toMatchObject({ state: { val: 3 }, output: 'silent' });
    // The OK of a matching event, then down while the heartbeat's interval runs out again.
    expect((await second.request('POST', '/api/v2/event', check)).status).toBe(200);
    await waitFor(async () => (await second.alarm(entity))?.v.state.val === 0, 'the OK');
    const secondMatch = Date.now();
    await stop(second, 'SIGTERM');
    await pause(Math.max(0, secondMatch + intervalMs + 500 - Date.now()));

    // The expiry happened while down: raised at the first beats, long before another whole interval.
    const third = await startEnginesServer(installDir, fixture);
    try {
      const started = Date.now();
      const again = await waitFor(async () => {
        const alarm = (await third.alarm(entity)) ?? undefined;
        return alarm?.v.state.val === 3 ? alarm : undefined;
      }, 'the heartbeat alarm after the restart', intervalMs);
      expect(Date.now() - started).toBeLessThan(intervalMs - 2000);
      expect(again.v.output).toBe('silent');
    } finally {
      await stop(third, 'SIGTERM');
    }
  });
});
