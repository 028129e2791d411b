// The correlation state survives a kill -9 of the server process: a group counted before it goes on after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEnginesServer, waitFor, type EnginesServer } from '@vigie/testkit';

const fixture = fileURLToPath(new URL('./fixtures/correlation-server.ts', import.meta.url));

let installDir: string;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-meta-alarms-kill-'));
});
afterEach(() => rmSync(installDir, { recursive: true, force: true }));

const check = (resource: string) => ({ event_type: 'check', source_type: 'resource', connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource, state: 2, output: `${resource} down` });

async function metaAlarm(server: EnginesServer): Promise<{ d: string; v: { children: string[] } } | undefined> {
  const res = await server.request('GET', '/alerts/get-alarms?limit=100');
  const alarms = (res.body as { data: { alarms: { d: string; v: { meta?: string; children: string[] } }[] }[] }).data[0]!.alarms;
  return alarms.find((alarm) => alarm.v.meta === 'three');
}

describe('correlation groups across a kill -9', () => {
  it('counts the alarms grouped before the crash toward the threshold after the restart', async () => {
    const first = await startEnginesServer(installDir, fixture);
    // The rule route answers the id as text, not JSON: sent without the harness's JSON reader.
    const created = await fetch(`${first.url}/api/v2/metaalarmrule`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('root:root-password').toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ _id: 'three', name: 'three', type: 'complex', config: { threshold_count: 3, time_interval: 3600 } }),
    });
    expect(await created.text()).toBe('three');
    expect((await first.request('POST', '/api/v2/event', [check('r1'), check('r2')])).status).toBe(200);
    await waitFor(async () => (await first.alarm('r2/host')) && (await first.alarm('r1/host')), 'the two alarms');
    // Let the pipeline finish both events, so they are not redelivered: the count must come from the stored group.
    await new Promise((resolve) => setTimeout(resolve, 500));
    first.kill('SIGKILL');
    await first.exited;

    const second = await startEnginesServer(installDir, fixture);
    try {
      expect(await metaAlarm(second)).toBeUndefined();
      expect((await second.request('POST', '/api/v2/event', check('r3'))).status).toBe(200);
      const meta = await waitFor(async () => {
        const found = await metaAlarm(second);
        return found && found.v.children.length === 3 ? found : undefined;
      }, 'the meta-alarm of the three alarms');
      expect([...meta.v.children].sort()).toEqual(['r1/host', 'r2/host', 'r3/host']);
      // The children get their parent after the meta-alarm lists them: waited for, not read at once.
      await waitFor(async () => ((await second.alarm('r1/host'))?.v.parents as string[] | undefined)?.join() === meta.d, 'r1 attached to the meta-alarm');
    } finally {
      second.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });
});
