// Two reference servers on one store: a rule written through one node applies to the next events the other
// processes, within 1 s (the store's change notifications: LISTEN/NOTIFY on PostgreSQL), not after the engines'
// periodic refresh (actions, the event filter, pbehaviors); sessions and accounts are the same on both nodes. The
// beat-driven rules: two-nodes-beats.test.ts. Runs once per store (fixtures/two-node-store.ts): PostgreSQL, and
// MongoDB at MONGODB_URL when set (`MONGODB_URL=mongodb://host:27017 npx vitest run --project server test/two-nodes`),
// else the jongodb test server with its gaps skipped by name. CI runs it on PostgreSQL and jongodb.
import { expect, it } from 'vitest';
import { userAdministrationRef } from '@vigie/auth';
import { changeHeard } from '@vigie/kernel-testing';
import { waitFor } from '@vigie/testkit';
import { call, check, openAlarm, password, twoNodes } from './fixtures/two-nodes.js';
import { describeOnEachStore } from './fixtures/two-node-store.js';

describeOnEachStore({}, (store) => {
  const nodes = twoNodes(store);

  it('an action written through node A applies to the events node B processes within 1 s', async () => {
    // B processes an event first, so its engines hold the (empty) actions as they were.
    expect((await call(nodes.nodeB, 'POST', '/api/v2/event', [check('before')])).status).toBe(200);
    const before = await waitFor(() => openAlarm(nodes.nodeB, 'before'), 'the first alarm on node B');
    expect(before.v.ack).toBeUndefined();

    const written = await call(nodes.nodeA, 'POST', '/api/v2/actions', {
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
        expect((await call(nodes.nodeB, 'POST', '/api/v2/event', [check(resource)])).status).toBe(200);
        await waitFor(() => openAlarm(nodes.nodeB, resource), `the alarm of ${resource}`);
        for (const name of sentAt.keys()) if ((await openAlarm(nodes.nodeB, name))?.v.ack !== undefined) return name;
        return undefined;
      },
      'an alarm acknowledged by the action on node B',
      5_000,
    );
    expect((sentAt.get(acked) as number) - writtenAt).toBeLessThan(1000);
    expect((await openAlarm(nodes.nodeB, acked))?.v.ack).toMatchObject({ a: 'robot', m: 'seen' });
  });

  it('an event-filter rule written through node A applies to the next event node B processes', async () => {
    // B processes an event first, so its event filter holds the (empty) rules as they were.
    expect((await call(nodes.nodeB, 'POST', '/api/v2/event', [check('filter-before')])).status).toBe(200);
    expect((await waitFor(() => openAlarm(nodes.nodeB, 'filter-before'), 'the first alarm on node B')).v.output).toBe('disk full');

    // No time bound: the next event B takes must see the rule, whatever the machine's load.
    const heardOnB = changeHeard(nodes.nodeB.kernel.store, 'eventfilter');
    const written = await call(nodes.nodeA, 'POST', '/api/v2/eventfilter/rules', {
      type: 'enrichment',
      pattern: { resource: { regex_match: '^filter-' } },
      actions: [{ type: 'set_field', name: 'Output', value: 'filtered on A' }],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    await heardOnB;
    expect((await call(nodes.nodeB, 'POST', '/api/v2/event', [check('filter-after')])).status).toBe(200);
    expect((await waitFor(() => openAlarm(nodes.nodeB, 'filter-after'), 'the alarm of the event after the rule')).v.output).toBe('filtered on A');
  });

  it('a pbehavior written through node A puts the next alarm node B creates under it', async () => {
    // B processes an event first, so its pbehavior index is loaded (it reloads on its own only every 60 s).
    expect((await call(nodes.nodeB, 'POST', '/api/v2/event', [check('pbh-before')])).status).toBe(200);
    await waitFor(() => openAlarm(nodes.nodeB, 'pbh-before'), 'the first alarm on node B');

    const heardOnB = changeHeard(nodes.nodeB.kernel.store, 'default_pbehavior');
    const nowSec = Math.floor(Date.now() / 1000);
    const written = await call(nodes.nodeA, 'POST', '/api/v2/pbehavior', {
      name: 'works written on A',
      author: 'root',
      filter: { _id: 'pbh-after/host' },
      type_: 'Maintenance',
      reason: 'upgrade',
      timezone: 'UTC',
      tstart: nowSec - 60,
      tstop: nowSec + 3600,
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    await heardOnB;
    expect((await call(nodes.nodeB, 'POST', '/api/v2/event', [check('pbh-after')])).status).toBe(200);
    // The alarm enters the pbehavior right after its creation (a change of its own). A beat would also put it there,
    // but only once B reads the pbehaviors again (60 s), and at that beat's time: the step's time tells which it was.
    const entered = await waitFor(async () => {
      const alarm = await openAlarm(nodes.nodeB, 'pbh-after');
      return alarm?.v.pbehavior_info ? alarm : undefined;
    }, 'the alarm of the event after the pbehavior, under it');
    expect(entered.v.pbehavior_info).toMatchObject({ name: 'works written on A' });
    const step = entered.v.steps?.find((candidate) => candidate._t === 'pbhenter');
    expect(step?.t, JSON.stringify(entered.v.steps)).toBe(entered.v.creation_date);
  });

  it('a session opened on node A is valid on node B', async () => {
    const login = await fetch(`${nodes.nodeA.url}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^vigie_session=./);
    const onB = await fetch(`${nodes.nodeB.url}/alerts/get-alarms?opened=true`, { headers: { cookie } });
    expect(onB.status).toBe(200);
  });

  it('a user disabled through node A is refused by node B at once, though B had just accepted it', async () => {
    await nodes.nodeA.kernel.scope('auth').resolve(userAdministrationRef).addUser({ name: 'bob', password: 'bob password long enough', role: 'admin' });
    const bob = `Basic ${Buffer.from('bob:bob password long enough').toString('base64')}`;
    const asBob = async (): Promise<number> => (await fetch(`${nodes.nodeB.url}/alerts/get-alarms?opened=true`, { headers: { authorization: bob } })).status;
    // Node B remembers the verified credential ([auth] cache_ttl_seconds, 60 s by default).
    expect(await asBob()).toBe(200);
    await nodes.nodeA.kernel.scope('auth').resolve(userAdministrationRef).setEnabled('bob', false);
    // Every request reads the account from the shared store: the very next one on node B is refused, whatever the
    // machine's load (no time bound to race).
    expect(await asBob()).toBe(401);
  });
});
