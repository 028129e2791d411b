// Two reference servers, each its own process, on one store and one RabbitMQ (partitions split by
// `preferred_partitions`): events published to the exchange and events sent over HTTP to either node are processed
// once, in order per entity; a kill -9 of one node while events, webhook deliveries, delayed actions or an import are in
// flight loses nothing and doubles nothing: the other node takes its partitions and the jobs over and, once the dead
// node's lease has run out, the events it had queued (docs/operations.md, "Running N nodes").
// Runs once per store (fixtures/two-node-store.ts): PostgreSQL, and MongoDB at MONGODB_URL when set
// (`MONGODB_URL=mongodb://host:27017 npx vitest run --project server test/two-nodes`), else the jongodb test server
// with its gaps skipped by name. CI runs it on PostgreSQL and jongodb.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '@vigie/kernel';
import { startSourceServer, tcpReachable } from '@vigie/kernel-testing';
import { eventually, testPasswordHashCost, waitFor } from '@vigie/testkit';
import { describeOnEachStore, openStore, type TestStore } from './fixtures/two-node-store.js';

const fixture = fileURLToPath(new URL('./fixtures/pipeline-server.ts', import.meta.url));
const amqpUrl = 'amqp://guest:guest@127.0.0.1:5672';
const password = 'two nodes password';
const authorization = `Basic ${Buffer.from(`root:${password}`).toString('base64')}`;
const partitions = 4;
/** Each reference server starts in its own process from the sources: slow on a loaded machine, so patience is long. */
const suiteTimeoutMs = 400_000;
/** How long a wait for processing may last: the nodes share two cores with the broker, PostgreSQL and other runs. */
const waitMs = 180_000;

interface Node {
  dir: string;
  url: string;
  /** The scheduler's name for this node on the job locks it takes (`vigie-<pid>`). */
  worker: string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

interface Alarm {
  _id: string;
  d: string;
  v: { steps: { _t: string; m: string; a: string }[]; ack?: { a: string } };
}

const base = { connector: 'nagios', connector_name: 'nagios-1', component: 'host', source_type: 'resource' };
const check = (resource: string, state: number, output: string) => ({ ...base, resource, event_type: 'check', state, output });

describeOnEachStore({ RabbitMQ: await tcpReachable('127.0.0.1', 5672) }, (store) => {
  // Unique per run, so that runs (and other suites) sharing the broker do not see each other's events.
  const run = randomBytes(4).toString('hex');
  const exchange = `vigie-nodes-${run}.events`;
  const prefix = `vigie-nodes-${run}`;
  let database: TestStore;
  let broker: ChannelModel;
  const nodes: Node[] = [];
  /** The nodes' `var/lib/imports`, shared as docs/operations.md asks: the node processing an import reads its file. */
  const importsDir = mkdtempSync(join(tmpdir(), 'vigie-two-nodes-imports-'));

  function configure(preferred: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-two-nodes-amqp-'));
    mkdirSync(join(dir, 'etc'));
    mkdirSync(join(dir, 'var', 'lib'), { recursive: true });
    symlinkSync(importsDir, join(dir, 'var', 'lib', 'imports'));
    writeFileSync(
      join(dir, 'etc', 'webserver.conf'),
      [
        '[server]', 'jobs_poll_ms = 200', '',
        '[store]', `url = ${database.url}`, 'pool_size = 4', '',
        // A short lease: the takeover of a killed node's queued events comes 3–4 s after the kill.
        '[engine]', 'beat_interval = 1s', 'node_lease = 3s', '',
        '[amqp]', `url = ${amqpUrl}`, `exchange = ${exchange}`, `queue_prefix = ${prefix}`, `partitions = ${partitions}`,
        `preferred_partitions = ${preferred}`, 'standby_delay = 1s', '',
        // An attempt owns its delivery for request_timeout + 5 s: the takeover of a killed node's attempt comes then.
        '[webhooks]', 'request_timeout = 10s', 'retry_unit = s', '',
        '[log]', 'level = warn', '',
      ].join('\n'),
    );
    return dir;
  }

  async function start(dir: string, env: Record<string, string> = {}): Promise<Node> {
    const { child, url, exited } = await startSourceServer(fixture, [dir], { VIGIE_ADMIN_PASSWORD: password, ...testPasswordHashCost, ...env });
    const node = { dir, url, worker: `vigie-${child.pid}`, exited, kill: (signal: NodeJS.Signals) => child.kill(signal) };
    nodes.push(node);
    return node;
  }

  async function call(node: Node, method: string, path: string, body?: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read JSON answers freely
    const res = await fetch(`${node.url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, `${method} ${path}`).toBe(200);
    return res.json();
  }

  async function alarms(node: Node): Promise<Alarm[]> {
    const answer = (await call(node, 'GET', '/alerts/get-alarms?opened=true&with_steps=true&limit=1000')) as { data: { alarms: Alarm[] }[] };
    return answer.data[0]?.alarms ?? [];
  }

  async function publish(events: readonly object[]): Promise<void> {
    const channel = await broker.createConfirmChannel();
    try {
      await channel.assertExchange(exchange, 'topic', { durable: true });
      for (const event of events) channel.publish(exchange, 'event', Buffer.from(JSON.stringify(event)), { persistent: true });
      await channel.waitForConfirms();
    } finally {
      await channel.close();
    }
  }

  let nodeA: Node;
  let nodeB: Node;

  /** The worker holding the lock of a `jobName` job (as `agenda_jobs` records it), and its node; undefined when none is locked. */
  async function lockHolder(jobsStore: Store, jobName: string): Promise<{ worker: string; node: Node | undefined } | undefined> {
    const jobs = await jobsStore.collection<{ _id: string; lockedAt: unknown; lastModifiedBy: string | null }>('agenda_jobs').find({ name: jobName });
    const locked = jobs.find((job) => job.lockedAt !== null && job.lockedAt !== undefined);
    if (!locked) return undefined;
    return { worker: String(locked.lastModifiedBy), node: [nodeA, nodeB].find((node) => node.worker === locked.lastModifiedBy) };
  }

  beforeAll(async () => {
    database = await store.create();
    broker = await connect(amqpUrl);
    // One after the other: the first makes the administrator account, the second finds it.
    nodeA = await start(configure(`0-${partitions / 2 - 1}`));
    nodeB = await start(configure(`${partitions / 2}-${partitions - 1}`));
  }, suiteTimeoutMs);

  afterAll(async () => {
    for (const node of nodes) {
      node.kill('SIGKILL');
      await node.exited;
      rmSync(node.dir, { recursive: true, force: true });
    }
    rmSync(importsDir, { recursive: true, force: true });
    if (broker) {
      const channel = await broker.createChannel();
      for (const suffix of ['intake', 'dead', ...Array.from({ length: partitions }, (_, k) => `p${k}`)]) await channel.deleteQueue(`${prefix}.${suffix}`);
      await channel.deleteExchange(exchange);
      await broker.close();
    }
    await database?.drop();
  }, suiteTimeoutMs);

  it('processes the events published to the exchange and sent to both nodes once each, in order per entity', async () => {
    const states = [1, 2, 3, 2, 1, 3];
    const sequence = (resource: string) => states.map((state, k) => check(resource, state, `${resource} s${k}`));
    const published = Array.from({ length: 8 }, (_, i) => `amqp-${run}-${i}`);
    // Over HTTP, order holds per node: each entity's events go to one node, half of them to each.
    const viaHttp = Array.from({ length: 4 }, (_, i) => `http-${run}-${i}`);
    await publish(published.flatMap(sequence));
    for (const [i, resource] of viaHttp.entries()) {
      const node = i % 2 === 0 ? nodeA : nodeB;
      for (const event of sequence(resource)) await call(node, 'POST', '/api/v2/event', event);
    }
    const everyEntity = [...published, ...viaHttp];
    const stateSteps = (alarm: Alarm) => alarm.v.steps.filter((step) => step._t === 'stateinc' || step._t === 'statedec').map((step) => step.m);
    const expected = (resource: string) => states.map((_, k) => `${resource} s${k}`);
    const done = await waitFor(async () => {
      const list = (await alarms(nodeB)).filter((alarm) => everyEntity.some((resource) => alarm.d === `${resource}/host`));
      const complete = list.length === everyEntity.length && list.every((alarm) => stateSteps(alarm).length >= states.length);
      return complete ? list : undefined;
    }, 'every event processed', waitMs);
    for (const resource of everyEntity) {
      const alarm = done.find((a) => a.d === `${resource}/host`)!;
      expect(stateSteps(alarm), resource).toEqual(expected(resource));
    }
    // Node A lists the same alarms (one store).
    const onA = (await alarms(nodeA)).filter((alarm) => everyEntity.some((resource) => alarm.d === `${resource}/host`));
    expect(onA.map((alarm) => stateSteps(alarm)).sort()).toEqual(done.map((alarm) => stateSteps(alarm)).sort());
  }, suiteTimeoutMs);

  // Run after the test above, node B holds the (empty) webhooks it read then: the webhook written through node A must
  // reach it by the store's change notification, not after its 10 s refresh, or B's alarms get no delivery (#27).
  it('loses and doubles nothing when a node is killed with events, deliveries and delayed actions in flight', async () => {
    const received: { alarm: string; key: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ alarm: body, key: String(req.headers['idempotency-key'] ?? '') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const tag = `kill-${run}`;
      await call(nodeA, 'POST', '/api/v2/webhook', {
        _id: `hook-${run}`,
        hook: { triggers: ['create'] },
        retry: { count: 3, delay: 1, unit: 's' },
        request: { method: 'POST', url: target, payload: '{{ .Entity.ID }}' },
      });
      await call(nodeA, 'POST', '/api/v2/actions', {
        _id: `ack-${run}`,
        type: 'ack',
        delay: '3s',
        hook: { triggers: ['create'] },
        parameters: { author: 'robot' },
      });
      const create = (resource: string) => ({ ...check(resource, 2, 'down'), component: `host-${tag}` });
      const first = Array.from({ length: 24 }, (_, i) => `${tag}-a${i}`);
      const second = Array.from({ length: 12 }, (_, i) => `${tag}-b${i}`);
      const ours = (list: Alarm[]) => list.filter((alarm) => alarm.d.endsWith(`/host-${tag}`));
      await publish(first.map(create));
      // Kill node A while the first events are being processed: some alarms exist, their deliveries and jobs are young.
      await waitFor(async () => (ours(await alarms(nodeB)).length > 0 ? true : undefined), 'the first alarms');
      nodeA.kill('SIGKILL');
      await nodeA.exited;
      // Node B takes node A's partitions over: events published now, whatever their partition, are processed.
      await publish(second.map(create));
      await waitFor(async () => {
        const list = ours(await alarms(nodeB));
        return second.every((resource) => list.some((alarm) => alarm.d === `${resource}/host-${tag}`)) ? true : undefined;
      }, 'the events published after the kill, processed by node B', waitMs);
      // What node A had queued but not processed is processed by node B once A's lease runs out, or by A started
      // again on its data directory (which waits while B holds a claim on it).
      const restartedA = await start(nodeA.dir);
      nodeA = restartedA;
      const all = [...first, ...second];
      const progress = async () => {
        const list = ours(await alarms(restartedA));
        return {
          alarms: list.length,
          acked: list.filter((alarm) => alarm.v.ack).length,
          delivered: all.filter((resource) => received.some((r) => r.alarm === `${resource}/host-${tag}`)).length,
          list,
        };
      };
      const { list: settled } = await eventually(
        progress,
        (p) => p.alarms === all.length && p.acked === all.length && p.delivered === all.length,
        'every alarm created, delivered and acknowledged',
        waitMs,
      );
      for (const alarm of settled) {
        // One create, one delayed ack: nothing applied twice.
        expect(alarm.v.steps.map((step) => step._t), alarm.d).toEqual(['stateinc', 'statusinc', 'ack']);
        expect(alarm.v.ack).toMatchObject({ a: 'robot' });
        // One delivery per alarm: a request repeated after the crash carries the same Idempotency-Key.
        expect(new Set(received.filter((r) => r.alarm === alarm.d).map((r) => r.key)).size, alarm.d).toBe(1);
      }
    } finally {
      // The next tests' alarms must not be acknowledged or delivered by this test's rules.
      await call(nodeB, 'DELETE', `/api/v2/actions/ack-${run}`);
      await call(nodeB, 'DELETE', `/api/v2/webhook/hook-${run}`);
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, suiteTimeoutMs);

  it('finishes on the other node, once, the import a killed node was processing', async () => {
    const { store: jobsStore } = await openStore(database.url);
    try {
      const tag = `import-${run}`;
      // Big enough to be still processing when its node is killed (several seconds on a quiet machine).
      const hosts = 100;
      const checks = 30_000;
      const host = (i: number) => `${tag}-host-${i}`;
      const resource = (i: number) => `${tag}-check-${i}/${host(i % hosts)}`;
      const disabledAt = (i: number) => 1_700_000_000 + i;
      const importId = (
        (await call(nodeA, 'PUT', '/api/contextgraph/import', {
          json: {
            cis: [
              ...Array.from({ length: hosts }, (_, i) => ({ _id: host(i), type: 'component', action: 'create' })),
              ...Array.from({ length: checks }, (_, i) => ({ _id: resource(i), type: 'resource', action: 'create' })),
              // Appended to the host's history: an import applied twice would append it twice.
              ...Array.from({ length: hosts }, (_, i) => ({ _id: host(i), action: 'disable', action_properties: { disable: disabledAt(i) } })),
            ],
            links: Array.from({ length: checks }, (_, i) => ({ from: resource(i), to: host(i % hosts), action: 'create' })),
          },
        })) as { data: { import_id: string }[] }
      ).data[0]!.import_id;
      const status = (node: Node) => call(node, 'GET', `/api/contextgraph/import/status/${importId}`) as Promise<{ status: string; stats?: object }>;
      // Kill whichever node processes the import (it holds the job's lock), once it is ongoing.
      const holder = await waitFor(
        async () => ((await status(nodeB)).status === 'ongoing' ? lockHolder(jobsStore, 'import.process') : undefined),
        'the import ongoing, and the lock of its job',
      );
      const processing = holder.node;
      expect(processing, `the node of worker ${holder.worker}`).toBeDefined();
      const survivor = processing === nodeA ? nodeB : nodeA;
      processing?.kill('SIGKILL');
      await processing?.exited;
      const killedAt = Date.now();
      expect((await status(survivor)).status, 'the import when its node was killed').toBe('ongoing');

      const done = await waitFor(async () => {
        const record = await status(survivor);
        return record.status === 'ongoing' ? undefined : record;
      }, 'the import finished by the surviving node', waitMs);
      // Its job's lock lasts as long as the claim on the import it is touched with, not the scheduler's 10 minutes.
      expect(Date.now() - killedAt, 'the takeover').toBeLessThan(120_000);
      expect(done).toMatchObject({ status: 'done', stats: { deleted: 0, updated: hosts + checks } });
      const entities = async (filter: object) =>
        (await call(survivor, 'GET', `/api/v2/entities?limit=1000&filter=${encodeURIComponent(JSON.stringify(filter))}`)) as {
          total: number;
          data: { _id: string; depends: string[]; disable_history: number[] }[];
        };
      const ours = { _id: { $regex: `^${tag}-` } };
      expect((await entities(ours)).total, 'every entity of the import').toBe(hosts + checks);
      expect((await entities({ ...ours, type: 'resource', impact: { $size: 1 } })).total, 'the checks, each impacting its host once').toBe(checks);
      const { data: hostList } = await entities({ ...ours, type: 'component' });
      expect(hostList.map((entity) => entity._id).sort()).toEqual(Array.from({ length: hosts }, (_, i) => host(i)).sort());
      for (const entity of hostList) {
        const i = Number(entity._id.slice(`${tag}-host-`.length));
        expect(entity.disable_history, entity._id).toEqual([disabledAt(i)]);
        expect(entity.depends, entity._id).toHaveLength(checks / hosts);
        expect(new Set(entity.depends).size, entity._id).toBe(checks / hosts);
      }
      // The next tests need both nodes.
      if (processing === nodeA) nodeA = await start(nodeA.dir);
      else nodeB = await start(nodeB.dir);
    } finally {
      await jobsStore.close();
    }
  }, suiteTimeoutMs);

  it('sends the webhook delivery a killed node was attempting from the other node, once the attempt lease ends', async () => {
    // The first request is never answered: the node attempting it is killed meanwhile. The next ones are.
    const keys: string[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        keys.push(String(req.headers['idempotency-key'] ?? ''));
        if (keys.length > 1) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { store: jobsStore } = await openStore(database.url);
    try {
      const hook = `hang-${run}`;
      await call(nodeA, 'POST', '/api/v2/webhook', {
        _id: hook,
        hook: { triggers: ['create'] },
        retry: { count: 3, delay: 1, unit: 's' },
        request: { method: 'POST', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
      });
      await call(nodeA, 'POST', '/api/v2/event', [{ ...check(`hang-${run}`, 2, 'down'), component: `host-hang-${run}` }]);
      await waitFor(() => keys.length > 0, 'the first request of the delivery');
      // Kill whichever node holds the attempt (its job lock): the other must take the attempt over.
      const holder = await waitFor(() => lockHolder(jobsStore, 'webhooks.deliver'), 'the lock of the delivery attempt');
      const attempting = holder.node;
      expect(attempting, `the node of worker ${holder.worker}`).toBeDefined();
      const survivor = attempting === nodeA ? nodeB : nodeA;
      attempting?.kill('SIGKILL');
      await attempting?.exited;
      const [delivery] = await waitFor(async () => {
        const list = (await call(survivor, 'GET', `/api/v2/webhook-deliveries?webhook=${hook}`)) as { data: { status: string; attempts: { status?: number }[] }[] };
        return list.data[0]?.status === 'succeeded' ? list.data : undefined;
      }, 'the delivery sent by the surviving node', waitMs);
      // The killed node's attempt left no record: the one attempt is the survivor's, with the same Idempotency-Key.
      expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([200]);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      expect(new Set(keys).size).toBe(1);
      await call(survivor, 'DELETE', `/api/v2/webhook/${hook}`);
      // The next test needs node B.
      if (attempting === nodeB) nodeB = await start(nodeB.dir);
    } finally {
      await jobsStore.close();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, suiteTimeoutMs);

  it('processes the events a killed node had queued, on the other node, without its restart', async () => {
    // Node A, started again so that it holds every entity's lane on its first comment: the alarm step of that comment
    // is stored, the event never finishes, and the comment behind it waits in A's queue. Only node B can process it.
    nodeA.kill('SIGKILL');
    await nodeA.exited;
    nodeA = await start(nodeA.dir, { HOLD_AFTER_ALARMS: '1' });
    const tag = `takeover-${run}`;
    const resources = Array.from({ length: 4 }, (_, i) => `${tag}-${i}`);
    const event = (resource: string, fields: object) => ({ ...base, component: `host-${tag}`, resource, ...fields });
    for (const resource of resources) {
      await call(nodeA, 'POST', '/api/v2/event', [
        event(resource, { event_type: 'check', state: 2, output: 'down' }),
        event(resource, { event_type: 'comment', output: 'c1' }),
        event(resource, { event_type: 'comment', output: 'c2' }),
      ]);
    }
    const ours = (list: Alarm[]) => list.filter((alarm) => alarm.d.endsWith(`/host-${tag}`));
    const steps = (alarm: Alarm) => alarm.v.steps.map((step) => `${step._t} ${step.m}`);
    const held = await waitFor(async () => {
      const list = ours(await alarms(nodeB));
      return list.length === resources.length && list.every((alarm) => steps(alarm).includes('comment c1')) ? list : undefined;
    }, 'every entity held by node A on its first comment');
    expect(held.map(steps)).toEqual(resources.map(() => ['stateinc down', 'statusinc down', 'comment c1']));
    nodeA.kill('SIGKILL');
    await nodeA.exited;

    const done = await waitFor(async () => {
      const list = ours(await alarms(nodeB));
      return list.length === resources.length && list.every((alarm) => steps(alarm).includes('comment c2')) ? list : undefined;
    }, 'the comments node A had queued, processed by node B', waitMs);
    // The first comment, applied by A before the kill and processed again by B, is stored once.
    for (const alarm of done) expect(steps(alarm), alarm.d).toEqual(['stateinc down', 'statusinc down', 'comment c1', 'comment c2']);
  }, suiteTimeoutMs);
});
