// Two reference servers on one store: a rule written through one node applies to the next events the other
// processes, within 1 s (the store's change notifications: LISTEN/NOTIFY on PostgreSQL), not after the engines'
// periodic refresh (actions, the event filter); sessions and accounts are the same on both nodes.
// Runs once per store (fixtures/two-node-store.ts): PostgreSQL, and MongoDB at MONGODB_URL when set
// (`MONGODB_URL=mongodb://host:27017 npx vitest run --project server test/two-nodes`), else the jongodb test server
// with its gaps skipped by name. CI runs it on PostgreSQL and jongodb.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { userAdministrationRef } from '@vigie/auth';
import type { Kernel } from '@vigie/kernel';
import { waitFor } from '@vigie/testkit';
import { createServerKernel } from '../src/index.js';
import { describeOnEachStore, type TestStore } from './fixtures/two-node-store.js';

const password = 'two nodes password';
const authorization = `Basic ${Buffer.from(`root:${password}`).toString('base64')}`;

interface Node {
  kernel: Kernel;
  url: string;
  dir: string;
}

async function startNode(databaseUrl: string): Promise<Node> {
  const dir = mkdtempSync(join(tmpdir(), 'vigie-two-nodes-'));
  mkdirSync(join(dir, 'etc'));
  // No `adapter`: the URL's scheme chooses the store.
  writeFileSync(join(dir, 'etc', 'webserver.conf'), `[store]\nurl = ${databaseUrl}\npool_size = 4\n\n[engine]\nbeat_interval = 1s\n\n[log]\nlevel = silent\n`);
  const kernel = await createServerKernel({ installDir: dir, env: { VIGIE_ADMIN_PASSWORD: password }, port: 0 });
  const { url } = await kernel.start();
  return { kernel, url, dir };
}

async function call(node: Node, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read JSON answers freely
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

const check = (resource: string) => ({ event_type: 'check', source_type: 'resource', connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource, state: 2, output: 'disk full' });

/** The open alarm of `host/<resource>` as `node` lists it, or undefined. */
async function openAlarm(node: Node, resource: string): Promise<{ v: Record<string, unknown> } | undefined> {
  const res = await call(node, 'GET', '/alerts/get-alarms?opened=true&with_steps=true&limit=1000');
  expect(res.status).toBe(200);
  return (res.body.data[0].alarms as { d: string; v: Record<string, unknown> }[]).find((alarm) => alarm.d === `${resource}/host`);
}

describeOnEachStore({}, (store) => {
  let database: TestStore;
  let nodeA: Node;
  let nodeB: Node;

  beforeAll(async () => {
    database = await store.create();
    // One after the other: the first makes the administrator account, the second finds it.
    nodeA = await startNode(database.url);
    nodeB = await startNode(database.url);
  });

  afterAll(async () => {
    for (const node of [nodeA, nodeB]) {
      await node?.kernel.stop();
      if (node) rmSync(node.dir, { recursive: true, force: true });
    }
    await database?.drop();
  });

  it('an action written through node A applies to the events node B processes within 1 s', async () => {
    // B processes an event first, so its engines hold the (empty) actions as they were.
    expect((await call(nodeB, 'POST', '/api/v2/event', [check('before')])).status).toBe(200);
    const before = await waitFor(() => openAlarm(nodeB, 'before'), 'the first alarm on node B');
    expect(before.v.ack).toBeUndefined();

    const written = await call(nodeA, 'POST', '/api/v2/actions', {
      _id: 'ack-nagios',
      type: 'ack',
      hook: { triggers: ['create'], event_patterns: [{ connector: 'nagios' }] },
      parameters: { author: 'robot', output: 'seen' },
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const writtenAt = Date.now();

    // Events to B, one new alarm each, until one of them is acknowledged by the action: the first such event must
    // have been sent within 1 s of the write (the engines' own refresh period is 10 s).
    const sentAt = new Map<string, number>();
    const acked = await waitFor(
      async () => {
        const resource = `after-${sentAt.size}`;
        sentAt.set(resource, Date.now());
        expect((await call(nodeB, 'POST', '/api/v2/event', [check(resource)])).status).toBe(200);
        await waitFor(() => openAlarm(nodeB, resource), `the alarm of ${resource}`);
        for (const name of sentAt.keys()) if ((await openAlarm(nodeB, name))?.v.ack !== undefined) return name;
        return undefined;
      },
      'an alarm acknowledged by the action on node B',
      5_000,
    );
    expect((sentAt.get(acked) as number) - writtenAt).toBeLessThan(1000);
    expect((await openAlarm(nodeB, acked))?.v.ack).toMatchObject({ a: 'robot', m: 'seen' });
  });

  it('an event-filter rule written through node A applies to the next event node B processes', async () => {
    // B processes an event first, so its event filter holds the (empty) rules as they were.
    expect((await call(nodeB, 'POST', '/api/v2/event', [check('filter-before')])).status).toBe(200);
    expect((await waitFor(() => openAlarm(nodeB, 'filter-before'), 'the first alarm on node B')).v.output).toBe('disk full');

    // Told once B's store hears that `eventfilter` changed: B's rule cache listened before this test did, so it heard
    // first. No time bound: the next event B takes must see the rule, whatever the machine's load. A store without
    // change notifications fails here rather than at the test's timeout.
    expect(nodeB.kernel.store.changes, "the store's change notifications").toBeDefined();
    const heard = new Promise<void>((resolve) => {
      const unsubscribe = nodeB.kernel.store.changes?.subscribe((collection) => {
        if (collection !== 'eventfilter') return;
        unsubscribe?.();
        resolve();
      });
    });
    const written = await call(nodeA, 'POST', '/api/v2/eventfilter/rules', {
      type: 'enrichment',
      pattern: { resource: { regex_match: '^filter-' } },
      actions: [{ type: 'set_field', name: 'Output', value: 'filtered on A' }],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    await heard;
    expect((await call(nodeB, 'POST', '/api/v2/event', [check('filter-after')])).status).toBe(200);
    expect((await waitFor(() => openAlarm(nodeB, 'filter-after'), 'the alarm of the event after the rule')).v.output).toBe('filtered on A');
  });

  it('a session opened on node A is valid on node B', async () => {
    const login = await fetch(`${nodeA.url}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^vigie_session=./);
    const onB = await fetch(`${nodeB.url}/alerts/get-alarms?opened=true`, { headers: { cookie } });
    expect(onB.status).toBe(200);
  });

  it('a user disabled through node A is refused by node B at once, though B had just accepted it', async () => {
    await nodeA.kernel.scope('auth').resolve(userAdministrationRef).addUser({ name: 'bob', password: 'bob password long enough', role: 'admin' });
    const bob = `Basic ${Buffer.from('bob:bob password long enough').toString('base64')}`;
    const asBob = async (): Promise<number> => (await fetch(`${nodeB.url}/alerts/get-alarms?opened=true`, { headers: { authorization: bob } })).status;
    // Node B remembers the verified credential ([auth] cache_ttl_seconds, 60 s by default).
    expect(await asBob()).toBe(200);
    await nodeA.kernel.scope('auth').resolve(userAdministrationRef).setEnabled('bob', false);
    // Every request reads the account from the shared store: the very next one on node B is refused, whatever the
    // machine's load (no time bound to race).
    expect(await asBob()).toBe(401);
  });

  it('an idle rule acts once on an alarm though both nodes beat', async () => {
    const written = await call(nodeA, 'POST', '/api/v2/idle-rule', {
      name: 'quiet',
      type: 'last_event',
      duration: '1s',
      operation: { type: 'assocticket', parameters: { ticket: 'IDLE-1' } },
      alarm_patterns: [{ v: { resource: { regex_match: '^idle-target$' } } }],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await call(nodeB, 'POST', '/api/v2/event', [check('idle-target')])).status).toBe(200);
    const tickets = async (): Promise<number> =>
      ((await openAlarm(nodeA, 'idle-target'))?.v.steps as { _t: string }[] | undefined)?.filter((step) => step._t === 'assocticket').length ?? 0;
    await waitFor(async () => (await tickets()) > 0, 'the idle rule to act');
    // Each node beats every second: over three more beats of each, the rule must not act again.
    const watchUntil = Date.now() + 3_000;
    while (Date.now() < watchUntil) expect(await tickets()).toBe(1);
  });
});
