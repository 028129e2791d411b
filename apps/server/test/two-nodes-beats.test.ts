// Two reference servers on one store (each store of fixtures/two-node-store.ts), both beating every second: every beat-driven rule acts once on
// what it selects, not once per node (#27) — idle rules, heartbeats, alarm filters, pbehavior enter/leave, resolution
// after baggot_time, and the groups of time-window meta-alarm rules. Each test watches a few more beats of each node
// after the rule acted.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { changeHeard } from '@vigie/kernel-testing';
import { eventually, waitFor } from '@vigie/testkit';
import { call, check, listAlarms, openAlarm, twoNodes, type ListedAlarm, type Node } from './fixtures/two-nodes.js';
import { describeOnEachStore } from './fixtures/two-node-store.js';

/** How long each test keeps watching after the rule acted: three beats of each node. */
const watchMs = 3_000;

/** Runs `assert` again and again for `watchMs`: what a rule did once must not be done again by either node. */
async function watch(assert: () => Promise<void>): Promise<void> {
  const until = Date.now() + watchMs;
  while (Date.now() < until) await assert();
}

const stepCount = (alarm: ListedAlarm | undefined, type: string): number => (alarm?.v.steps ?? []).filter((step) => step._t === type).length;

/** Every alarm (open or resolved) of entity `entityId`. */
async function alarmsOf(node: Node, entityId: string): Promise<ListedAlarm[]> {
  return (await listAlarms(node)).filter((alarm) => alarm.d === entityId);
}

describeOnEachStore({}, (store) => {
  const nodes = twoNodes(
    store,
    [
      // A closed alarm is resolved at the first beat 2 s after it closed.
      '[alarms]',
      'baggot_time = 2s',
      '',
      // Each node reads the pbehaviors written through the other within a second.
      '[pbehaviors]',
      'refresh_seconds = 1',
      '',
    ].join('\n'),
  );

  it('an idle rule acts once on an alarm though both nodes beat', async () => {
    const { nodeA, nodeB } = nodes;
    const written = await call(nodeA, 'POST', '/api/v2/idle-rule', {
      name: 'quiet',
      type: 'last_event',
      duration: '1s',
      operation: { type: 'assocticket', parameters: { ticket: 'IDLE-1' } },
      alarm_patterns: [{ v: { resource: { regex_match: '^idle-target$' } } }],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await call(nodeB, 'POST', '/api/v2/event', [check('idle-target')])).status).toBe(200);
    const tickets = async (): Promise<number> => stepCount(await openAlarm(nodeA, 'idle-target'), 'assocticket');
    await waitFor(async () => (await tickets()) > 0, 'the idle rule to act');
    await watch(async () => expect(await tickets()).toBe(1));
  });

  it('a heartbeat without its event raises one alarm, resolved once when the event comes', async () => {
    const { nodeA, nodeB } = nodes;
    const pattern = { connector: 'hb-connector', connector_name: 'hb-1' };
    // 4 s: the event fed at each turn of the watches below must come more often than that, even on a loaded machine
    // (with 2 s, a turn slowed past it let the heartbeat expire again: a second alarm, rightly).
    const written = await call(nodeA, 'POST', '/api/v2/heartbeat/', { pattern, expected_interval: '4s' });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const entityId = 'connector:hb-connector.connector_name:hb-1/heartbeats';
    try {
      const raised = await waitFor(async () => (await alarmsOf(nodeB, entityId))[0], 'the heartbeat alarm');
      expect(raised.v.state).toMatchObject({ val: 3 });
      // Both nodes see the expiry at every beat: one alarm, created once.
      await watch(async () => {
        const alarms = await alarmsOf(nodeA, entityId);
        expect(alarms).toHaveLength(1);
        expect(stepCount(alarms[0], 'stateinc')).toBe(1);
      });

      // The expected event comes (OK checks of the watched connector, so they raise no alarm of their own), and keeps
      // coming while the test watches, so the heartbeat does not expire again.
      const feed = () => call(nodeB, 'POST', '/api/v2/event', [{ ...check('hb-source', 0), ...pattern }]);
      const resolved = await eventually(
        async () => {
          expect((await feed()).status).toBe(200);
          return alarmsOf(nodeA, entityId);
        },
        (alarms) => alarms.length > 0 && alarms.every((alarm) => typeof alarm.v.resolved === 'number'),
        'the heartbeat alarm resolved',
      );
      expect(resolved).toHaveLength(1);
      await watch(async () => {
        expect((await feed()).status).toBe(200);
        const alarms = await alarmsOf(nodeB, entityId);
        expect(alarms.map((alarm) => [alarm._id, alarm.v.resolved])).toEqual([[resolved[0]?._id, resolved[0]?.v.resolved]]);
        expect(stepCount(alarms[0], 'stateinc')).toBe(1);
        expect(stepCount(alarms[0], 'statedec')).toBe(1);
      });
    } finally {
      await call(nodeB, 'DELETE', `/api/v2/heartbeat/${written.body.description}`);
    }
  });

  it('an alarm filter runs its tasks once per due run though both nodes beat', async () => {
    const { nodeA, nodeB } = nodes;
    const written = await call(nodeA, 'POST', '/api/v2/alerts/filters', {
      entity_filter: { d: 'filter-target/host' },
      condition: {},
      tasks: ['alerts.useraction.comment'],
      output_format: 'still down: {old}',
      limit: 2,
      repeat: 2,
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await call(nodeB, 'POST', '/api/v2/event', [check('filter-target')])).status).toBe(200);
    const comments = async (): Promise<number> => stepCount(await openAlarm(nodeA, 'filter-target'), 'comment');
    // Two runs, 2 s apart: each node sees each of them due.
    await waitFor(async () => (await comments()) >= 2, 'both runs of the alarm filter');
    await watch(async () => expect(await comments()).toBe(2));
    const alarm = await openAlarm(nodeB, 'filter-target');
    expect((alarm?.v.alarmfilter as { runs: Record<string, number[]> }).runs[written.body._id]).toHaveLength(2);
  });

  it('an alarm enters and leaves a pbehavior window once though both nodes beat', async () => {
    const { nodeA, nodeB } = nodes;
    expect((await call(nodeB, 'POST', '/api/v2/event', [check('pbh-target')])).status).toBe(200);
    await waitFor(() => openAlarm(nodeB, 'pbh-target'), 'the alarm under the coming pbehavior');
    const nowSec = Math.floor(Date.now() / 1000);
    const written = await call(nodeA, 'POST', '/api/v2/pbehavior', {
      name: 'short works',
      author: 'root',
      filter: { _id: 'pbh-target/host' },
      type_: 'Maintenance',
      reason: 'upgrade',
      timezone: 'UTC',
      // Starts once node B read it again (refresh_seconds = 1), ends a few beats later.
      tstart: nowSec + 3,
      tstop: nowSec + 6,
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const pbhSteps = async () => {
      const alarm = await openAlarm(nodeA, 'pbh-target');
      return { enter: stepCount(alarm, 'pbhenter'), leave: stepCount(alarm, 'pbhleave') };
    };
    await eventually(pbhSteps, (steps) => steps.leave > 0, 'the alarm to leave the pbehavior');
    await watch(async () => expect(await pbhSteps()).toEqual({ enter: 1, leave: 1 }));
  });

  it('a closed alarm is resolved once after baggot_time: one alarm resolved, one resolve webhook delivery', async () => {
    const { nodeA, nodeB } = nodes;
    const entityId = 'resolve-target/host';
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      // Node B resolves as often as node A: it must know the webhook before the alarm is due.
      const heardOnB = changeHeard(nodeB.kernel.store, 'webhooks');
      const written = await call(nodeA, 'POST', '/api/v2/webhook', {
        _id: 'on-resolve',
        hook: { triggers: ['resolve'] },
        request: { method: 'POST', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, payload: '{{ .Entity.ID }}' },
      });
      expect(written.status, JSON.stringify(written.body)).toBe(200);
      await heardOnB;
      expect((await call(nodeA, 'POST', '/api/v2/event', [check('resolve-target')])).status).toBe(200);
      await waitFor(() => openAlarm(nodeA, 'resolve-target'), 'the alarm to close');
      expect((await call(nodeA, 'POST', '/api/v2/event', [check('resolve-target', 0)])).status).toBe(200);
      await waitFor(() => received.includes(entityId), 'the delivery of the resolve trigger');
      await watch(async () => {
        expect(received.filter((body) => body === entityId)).toHaveLength(1);
        const alarms = await alarmsOf(nodeB, entityId);
        expect(alarms).toHaveLength(1);
        expect(alarms[0]?.v.resolved).toEqual(expect.any(Number));
      });
    } finally {
      await call(nodeB, 'DELETE', '/api/v2/webhook/on-resolve');
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('a time-window meta-alarm rule makes one meta-alarm of a group whose alarms both nodes process', async () => {
    const { nodeA, nodeB } = nodes;
    const heardOnB = changeHeard(nodeB.kernel.store, 'meta_alarm_rules');
    const written = await call(nodeA, 'POST', '/api/v2/metaalarmrule', {
      _id: 'burst',
      name: 'burst',
      type: 'complex',
      config: { threshold_count: 3, time_interval: 60, entity_patterns: [{ component: 'burst' }] },
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    await heardOnB;
    // The alarms of the group reach both nodes at the same time, two by two.
    const members = Array.from({ length: 8 }, (_, i) => `member-${i}`);
    const event = (resource: string) => ({ ...check(resource), component: 'burst' });
    for (let i = 0; i < members.length; i += 2) {
      const answers = await Promise.all([call(nodeA, 'POST', '/api/v2/event', [event(members[i] as string)]), call(nodeB, 'POST', '/api/v2/event', [event(members[i + 1] as string)])]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    }
    const children = members.map((member) => `${member}/burst`).sort();
    const metaAlarms = async () => (await listAlarms(nodeA)).filter((alarm) => alarm.v.meta === 'burst');
    await eventually(metaAlarms, (metas) => new Set(metas.flatMap((meta) => meta.v.children as string[])).size === children.length, 'a meta-alarm for every member');
    await watch(async () => {
      const metas = (await metaAlarms()).map((meta) => ({ entity: meta.d, children: [...(meta.v.children as string[])].sort() }));
      expect(metas).toEqual([{ entity: expect.any(String), children }]);
    });
  });
});
