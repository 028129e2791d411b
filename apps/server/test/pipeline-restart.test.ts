// The event pipeline across a kill -9 of the real server process: every acknowledged event is processed exactly
// once — events whose alarm change was stored but which had not left the queue are not applied twice, and events
// that had not been processed at all are processed after the restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { onLines, startSourceServer } from '@vigie/kernel-testing';
import { testPasswordHashCost, waitFor } from '@vigie/testkit';

const fixture = fileURLToPath(new URL('./fixtures/pipeline-server.ts', import.meta.url));
const authorization = `Basic ${Buffer.from('root:admin password').toString('base64')}`;

interface Server {
  url: string;
  lines: string[];
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

async function startServer(installDir: string, env: Record<string, string>): Promise<Server> {
  const { child, url, exited } = await startSourceServer(fixture, [installDir], { VIGIE_ADMIN_PASSWORD: 'admin password', VIGIE_ENGINE__LANES: '4', VIGIE_LOG__LEVEL: 'warn', ...testPasswordHashCost, ...env });
  const lines: string[] = [];
  onLines(child.stdout, (line) => void lines.push(line));
  return { url, lines, exited, kill: (signal) => child.kill(signal) };
}


interface Alarm {
  d: string;
  v: { steps: { _t: string; m: string }[]; resolved?: number };
}

async function alarms(server: Server): Promise<Alarm[]> {
  const res = await fetch(`${server.url}/alerts/get-alarms?opened=true&resolved=true&with_steps=true&limit=1000`, { headers: { authorization } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { alarms: Alarm[] }[] }).data[0]?.alarms ?? [];
}

const resources = Array.from({ length: 8 }, (_, i) => `r${i}`);
const comments = ['c1', 'c2', 'c3', 'c4', 'c5'];
const base = { connector: 'nagios', connector_name: 'nagios-1', component: 'host', source_type: 'resource' };

let installDir: string;
let running: Server | undefined;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-pipeline-restart-'));
});
afterEach(async () => {
  running?.kill('SIGKILL');
  await running?.exited;
  running = undefined;
  rmSync(installDir, { recursive: true, force: true });
});

it('after a kill -9 with events in flight, processes every acknowledged event exactly once', async () => {
  const first = await startServer(installDir, { HOLD_AFTER_ALARMS: '1' });
  running = first;
  // Per resource: the check that creates its alarm, then comments, each a step that a second application would repeat.
  const events = resources.flatMap((resource) => [
    { ...base, resource, event_type: 'check', state: 2, output: 'down' },
    ...comments.map((output) => ({ ...base, resource, event_type: 'comment', output })),
  ]);
  const res = await fetch(`${first.url}/api/v2/event`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(events) });
  expect(res.status).toBe(200);
  const answer = (await res.json()) as { sent_events: unknown[]; failed_events: unknown[] };
  expect(answer.sent_events).toHaveLength(events.length);
  // Each of the 4 workers stores a comment step, then holds that event: applied, still queued; the others wait behind.
  await waitFor(() => first.lines.filter((l) => l.startsWith('HELD ')).length >= 4, 'every worker to hold an event');
  const beforeCrash = await alarms(first);
  expect(beforeCrash.length).toBeGreaterThan(0);
  const commentsBeforeCrash = beforeCrash.flatMap((a) => a.v.steps.filter((s) => s._t === 'comment')).length;
  expect(commentsBeforeCrash).toBeLessThan(resources.length * comments.length);
  const held = beforeCrash.filter((a) => a.v.steps.some((s) => s._t === 'comment'));
  expect(held.map((a) => a.v.steps.map((s) => s.m).slice(-1)[0])).toEqual(held.map(() => 'c1'));
  first.kill('SIGKILL');
  await first.exited;

  const second = await startServer(installDir, {});
  running = second;
  const final = await waitFor(async () => {
    const list = await alarms(second);
    const complete = list.length === resources.length && list.every((a) => a.v.steps.filter((s) => s._t === 'comment').length >= comments.length);
    return complete ? list : undefined;
  }, 'every event processed');
  // Let anything still queued (a duplicate would be) go through before the final look.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const settled = await alarms(second);
  expect(settled).toEqual(final);
  expect(settled.map((a) => a.d).sort()).toEqual(resources.map((r) => `${r}/host`).sort());
  for (const alarm of settled) {
    expect(alarm.v.steps.map((s) => `${s._t} ${s.m}`), alarm.d).toEqual(['stateinc down', 'statusinc down', ...comments.map((c) => `comment ${c}`)]);
  }
});
