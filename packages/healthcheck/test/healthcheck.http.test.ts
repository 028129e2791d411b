import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectAmqp, type Channel, type ChannelModel } from 'amqplib';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineFeature, type AnyFeature, type Collection, type HealthCheckDefinition } from '@vigie/kernel';
import { describeWithService, ManualClock, tcpReachable } from '@vigie/kernel-testing';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { beatCollection, healthcheckFeature, probeRoutingKey } from '../src/index.js';

const startedAt = Date.UTC(2025, 5, 1, 12, 0, 0);
const rabbitUrl = 'amqp://guest:guest@127.0.0.1:5672';
const redisUrl = 'redis://127.0.0.1:6379';

let t: TestKernel | undefined;
let clock: ManualClock;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.stop();
  t = undefined;
});

async function start(settings: Record<string, string | number> = {}, extra: readonly AnyFeature[] = [], installDir?: string): Promise<TestKernel> {
  clock = new ManualClock(startedAt);
  t = await startFeatureTest({
    features: [healthcheckFeature, ...extra],
    config: { 'healthcheck/manager.conf': { HEALTHCHECK: settings } },
    clock,
    installDir,
  });
  return t;
}

/** A feature that contributes health checks, as any feature can. */
const contributing = (...checks: HealthCheckDefinition[]) =>
  defineFeature({
    id: 'contributor',
    kernel: '^0.1.0',
    register(f) {
      for (const check of checks) f.healthCheck(check);
    },
  });
const failing = (name: string, message: string): HealthCheckDefinition => ({ name, check: async () => ({ ok: false, message }) });

interface Summary {
  amqp: string;
  cache: string;
  database: string;
  engines: string;
  time_series: string;
  timestamp: number;
  overall: boolean;
}

async function summary(kernel: TestKernel, query = ''): Promise<Summary> {
  const res = await kernel.get(`/api/v2/healthcheck/${query}`);
  expect(res.status).toBe(200);
  return res.body as Summary;
}

/** A TCP port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server that accepts connections and answers each received chunk with `answer` (nothing when undefined). */
async function fakeServer(answer?: (chunk: Buffer) => string): Promise<{ url: (scheme: string) => string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (answer) socket.on('data', (chunk) => socket.write(answer(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('GET /api/v2/healthcheck/', () => {
  it('answers a fresh installation with every service healthy, at the injected time, with and without the slash', async () => {
    const kernel = await start();
    const expected = { amqp: '', cache: '', database: '', engines: '', time_series: '', timestamp: startedAt / 1000, overall: true };
    const withSlash = await kernel.get('/api/v2/healthcheck/');
    expect(withSlash.status).toBe(200);
    expect(withSlash.body).toEqual(expected);
    expect(Object.keys(withSlash.body as object)).toEqual(['amqp', 'cache', 'database', 'engines', 'time_series', 'timestamp', 'overall']);
    clock.advance(5000);
    expect(await summary(kernel, '')).toEqual({ ...expected, timestamp: startedAt / 1000 + 5 });
    const withoutSlash = await kernel.get('/api/v2/healthcheck');
    expect(withoutSlash.status).toBe(200);
    expect(withoutSlash.body).toEqual({ ...expected, timestamp: startedAt / 1000 + 5 });
  });

  it('needs credentials, like every route', async () => {
    const kernel = await start();
    const res = await kernel.get('/api/v2/healthcheck/', { auth: false });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ name: '', description: 'Authentication required' });
  });

  it('says what failed in each service, and every service counts toward overall by default', async () => {
    const kernel = await start({}, [contributing(failing('cache.sessions', 'sessions cache is read-only'))]);
    expect(await summary(kernel)).toMatchObject({ cache: 'sessions cache is read-only', amqp: '', database: '', engines: '', overall: false });
  });

  it('computes overall from the criticals only, ignoring unknown names, case and spaces; timeseries means time_series', async () => {
    const kernel = await start({}, [contributing(failing('cache.sessions', 'cache down'), failing('time_series.metrics', 'no measurements'))]);
    const overall = async (query: string) => (await summary(kernel, query)).overall;
    expect(await overall('?criticals=database,engines')).toBe(true);
    expect(await overall('?criticals=database,cache')).toBe(false);
    expect(await overall('?criticals=amqp,%20CACHE')).toBe(false);
    expect(await overall('?criticals=time_series')).toBe(false);
    expect(await overall('?criticals=timeseries')).toBe(false);
    expect(await overall('?criticals=bogus,cache')).toBe(false);
    // Repeated, the parameter is one list.
    expect(await overall('?criticals=database&criticals=cache')).toBe(false);
    // No valid name: nothing is critical.
    expect(await overall('?criticals=bogus')).toBe(true);
    expect(await overall('?criticals=')).toBe(true);
    // Every service is still shown.
    expect(await summary(kernel, '?criticals=database')).toMatchObject({ cache: 'cache down', time_series: 'no measurements', overall: true });
  });

  it('folds checks of other components into engines, joins several failures, and never shows a failure as ""', async () => {
    const kernel = await start({}, [
      contributing(
        failing('idle-rules', 'the beat is 3 minutes late'),
        failing('engines.pipeline', 'worker 2 is not consuming'),
        failing('database.replica', ''),
        { name: 'cache.throws', check: async () => Promise.reject(new Error('cache client crashed')) },
        { name: 'amqp.ok', check: async () => ({ ok: true, message: '' }) },
      ),
    ]);
    expect(await summary(kernel)).toMatchObject({
      engines: 'worker 2 is not consuming; idle-rules: the beat is 3 minutes late',
      database: 'database.replica failed',
      cache: 'cache client crashed',
      amqp: '',
      overall: false,
    });
  });

  it('answers when a check hangs: the hung check becomes a failure message', async () => {
    const kernel = await start({}, [contributing({ name: 'amqp.hung', timeoutMs: 50, check: () => new Promise(() => undefined) })]);
    expect(await summary(kernel)).toMatchObject({ amqp: 'amqp.hung check timed out after 50 ms', overall: false });
  });
});

describe('database', () => {
  it('reads monitored collections that do not exist yet as empty: healthy', async () => {
    const kernel = await start({ check_collections: 'never_created,users' });
    expect(await summary(kernel)).toMatchObject({ database: '', overall: true });
  });

  it('reports a store that does not answer', async () => {
    const kernel = await start();
    vi.spyOn(kernel.kernel.store, 'ping').mockRejectedValue(new Error('connection reset by peer'));
    expect(await summary(kernel)).toMatchObject({ database: 'Failed to reach the database: connection reset by peer', overall: false });
  });

  it('reports a store that cannot list its collections', async () => {
    const kernel = await start();
    vi.spyOn(kernel.kernel.store, 'listCollections').mockRejectedValue(new Error('not authorized to list collections'));
    expect(await summary(kernel)).toMatchObject({ database: 'Failed to list the database collections: not authorized to list collections' });
  });

  it('names the monitored collection that cannot be read', async () => {
    const kernel = await start();
    const store = kernel.kernel.store;
    const collection = store.collection.bind(store);
    vi.spyOn(store, 'collection').mockImplementation(<T extends { _id: string }>(name: string) =>
      name === 'periodical_alarm'
        ? ({ find: () => Promise.reject(new Error('document 42 is corrupt')) } as unknown as Collection<T>)
        : collection<T>(name),
    );
    expect(await summary(kernel)).toMatchObject({ database: 'Failed to read collection periodical_alarm: document 42 is corrupt', overall: false });
    expect(await summary(kernel, '?criticals=engines')).toMatchObject({ overall: true });
  });
});

describe('engines', () => {
  const beatRecorded = async (kernel: TestKernel, at: number) => {
    await vi.waitFor(async () => expect(await kernel.kernel.store.collection(beatCollection.name).findOne({ _id: 'scheduler' })).toMatchObject({ at }), {
      timeout: 30_000,
    });
  };

  it('reports a scheduler that stopped beating, and its recovery', async () => {
    const kernel = await start();
    await beatRecorded(kernel, startedAt / 1000);
    clock.advance(90_000);
    expect(await summary(kernel)).toMatchObject({ engines: '', overall: true });
    clock.advance(1000);
    expect(await summary(kernel)).toMatchObject({ engines: 'Scheduler stalled: no engine beat for 91 s (expected every 30 s)', overall: false });
    await kernel.kernel.scheduler.now('healthcheck.engine-beat', {});
    await beatRecorded(kernel, startedAt / 1000 + 91);
    expect(await summary(kernel)).toMatchObject({ engines: '', overall: true });
  });

  it('gives the scheduler 90 s after start for its first beat', async () => {
    const kernel = await start();
    await beatRecorded(kernel, startedAt / 1000);
    // As if the first beat had not run yet.
    await kernel.kernel.store.collection(beatCollection.name).deleteMany({});
    clock.advance(90_000);
    expect(await summary(kernel)).toMatchObject({ engines: '' });
    clock.advance(1000);
    expect(await summary(kernel)).toMatchObject({ engines: 'Scheduler stalled: no engine beat since Vigie started 91 s ago', overall: false });
  });

  it("reports a beat it cannot read", async () => {
    const kernel = await start();
    const store = kernel.kernel.store;
    const collection = store.collection.bind(store);
    vi.spyOn(store, 'collection').mockImplementation(<T extends { _id: string }>(name: string) =>
      name === beatCollection.name ? ({ findOne: () => Promise.reject(new Error('store closed')) } as unknown as Collection<T>) : collection<T>(name),
    );
    expect(await summary(kernel)).toMatchObject({ engines: "Failed to read the scheduler's engine beat: store closed", overall: false });
  });
});

describe('configuration', () => {
  it("reads etc/healthcheck/manager.conf and accepts the original's sample, whose systemd engines it ignores", async () => {
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-healthcheck-'));
    try {
      mkdirSync(join(installDir, 'etc', 'healthcheck'), { recursive: true });
      writeFileSync(
        join(installDir, 'etc', 'healthcheck', 'manager.conf'),
        [
          '[HEALTHCHECK]',
          'check_amqp_limit_size = 100000',
          'check_amqp_queues = Engine_che,Engine_axe',
          'check_collections = default_entities,periodical_alarm',
          'check_engines = cleaner_alerts,cleaner_events,dynamic-infos,event_filter,scheduler,task_importctx',
          'check_ts_db = canopsis',
          'check_webserver = canopsis-webserver',
          'systemctl_engine_prefix = canopsis-engine@',
          `amqp_url = amqp://127.0.0.1:${await closedPort()}`,
          '',
        ].join('\n'),
      );
      const kernel = await start({}, [], installDir);
      const body = await summary(kernel);
      expect(body.amqp).toMatch(/^Failed to connect: connect ECONNREFUSED/);
      expect(body).toMatchObject({ engines: '', database: '', time_series: '', overall: false });
    } finally {
      await t?.stop();
      t = undefined;
      rmSync(installDir, { recursive: true, force: true });
    }
  });

  it('refuses to start on unknown keys and invalid values, naming each', async () => {
    const attempt = start({
      check_amqp_queue: 'Engine_che',
      check_collections: 'default_entities,bad name',
      amqp_url: 'http://127.0.0.1:5672',
      redis_url: '127.0.0.1:6379',
      check_amqp_limit_size: -1,
      check_timeout_ms: 10,
      check_amqp_queues: 'q'.repeat(256),
    });
    await expect(attempt).rejects.toThrow('config [HEALTHCHECK] (healthcheck/manager.conf) of feature healthcheck: unknown key check_amqp_queue');
    const problems = String(await attempt.catch((err: unknown) => err));
    expect(problems).toContain('check_collections names an invalid collection');
    expect(problems).toContain('amqp_url must be empty or a URL starting with amqp:// or amqps://');
    expect(problems).toContain('redis_url must be empty or a URL starting with redis:// or rediss://');
    expect(problems).toContain('check_amqp_limit_size must be greater than or equal to 0');
    expect(problems).toContain('check_timeout_ms must be greater than or equal to 100');
    expect(problems).toContain('check_amqp_queues names a queue longer than 255 bytes');
  });
});

describe('amqp and cache failures that need no service', () => {
  it('reports a broker port where nothing listens', async () => {
    const port = await closedPort();
    const kernel = await start({ amqp_url: `amqp://guest:guest@127.0.0.1:${port}` });
    expect(await summary(kernel)).toMatchObject({ amqp: `Failed to connect: connect ECONNREFUSED 127.0.0.1:${port}`, overall: false });
    expect(await summary(kernel, '?criticals=database,cache,engines,time_series')).toMatchObject({ overall: true });
  });

  it('reports a broker that accepts the connection and never answers, within check_timeout_ms', async () => {
    const silent = await fakeServer();
    try {
      const kernel = await start({ amqp_url: silent.url('amqp'), check_timeout_ms: 300 });
      expect(await summary(kernel)).toMatchObject({ amqp: 'Failed to connect: no answer within the 300 ms check timeout', overall: false });
    } finally {
      await silent.close();
    }
  });

  it('reports a Redis port where nothing listens', async () => {
    const port = await closedPort();
    const kernel = await start({ redis_url: `redis://127.0.0.1:${port}` });
    expect(await summary(kernel)).toMatchObject({ cache: `Failed to connect to Redis: connect ECONNREFUSED 127.0.0.1:${port}`, overall: false });
  });

  it('reports a Redis that accepts the connection and never answers, within check_timeout_ms', async () => {
    const silent = await fakeServer();
    try {
      const kernel = await start({ redis_url: silent.url('redis'), check_timeout_ms: 300 });
      expect(await summary(kernel)).toMatchObject({ cache: 'Failed to connect to Redis: no answer within the 300 ms check timeout', overall: false });
    } finally {
      await silent.close();
    }
  });

  it('reports a cache server whose ECHO does not come back unchanged', async () => {
    // Answers every command of each received chunk with the same simple string.
    const garbling = await fakeServer((chunk) => '+garbled\r\n'.repeat(Math.max(1, chunk.toString().split('\r\n').filter((line) => line.startsWith('*')).length)));
    try {
      const kernel = await start({ redis_url: garbling.url('redis') });
      expect(await summary(kernel)).toMatchObject({ cache: 'Redis ECHO returned "garbled" instead of "vigie healthcheck"', overall: false });
    } finally {
      await garbling.close();
    }
  });
});

describeWithService('RabbitMQ', await tcpReachable('127.0.0.1', 5672), () => {
  const prefix = `vigie-healthcheck-test-${randomUUID().slice(0, 8)}`;
  const queues = { served: `${prefix}-served`, idle: `${prefix}-idle`, loaded: `${prefix}-loaded`, locked: `${prefix}-locked` };
  let admin: ChannelModel;
  let channel: Channel;
  let locker: ChannelModel;
  // Should a run die before its cleanup, the broker still drops the test queues once unused for this long.
  const expires = 10 * 60_000;

  beforeAll(async () => {
    admin = await connectAmqp(rabbitUrl);
    channel = await admin.createConfirmChannel();
    for (const queue of [queues.served, queues.idle, queues.loaded]) await channel.assertQueue(queue, { expires });
    await channel.consume(queues.served, (message) => message && channel.ack(message));
    for (let i = 0; i < 10; i++) channel.sendToQueue(queues.loaded, Buffer.from(`message ${i}`));
    await (channel as unknown as { waitForConfirms(): Promise<void> }).waitForConfirms();
    // One consumer that takes one message and never acknowledges it: 9 stay ready.
    const consumer = await admin.createChannel();
    await consumer.prefetch(1);
    await new Promise<void>((delivered) => void consumer.consume(queues.loaded, () => delivered()));
    // An exclusive queue belongs to its connection: another connection cannot inspect it.
    locker = await connectAmqp(rabbitUrl);
    await (await locker.createChannel()).assertQueue(queues.locked, { exclusive: true, expires });
  });

  afterAll(async () => {
    await locker?.close();
    if (!admin) return;
    const cleanup = await admin.createChannel();
    for (const queue of [queues.served, queues.idle, queues.loaded]) await cleanup.deleteQueue(queue);
    await admin.close();
  });

  it('answers "" for a healthy broker whose monitored queues have consumers and few messages', async () => {
    const kernel = await start({ amqp_url: rabbitUrl, amqp_exchange: 'amq.topic', check_amqp_queues: `${queues.served},${queues.loaded}`, check_amqp_limit_size: 9 });
    expect(await summary(kernel)).toEqual(expect.objectContaining({ amqp: '', overall: true }));
  });

  it('names a missing queue', async () => {
    const kernel = await start({ amqp_url: rabbitUrl, check_amqp_queues: `${queues.served},${prefix}-missing` });
    expect(await summary(kernel)).toMatchObject({ amqp: `Missing queue ${prefix}-missing`, overall: false });
  });

  it('names a queue without consumer', async () => {
    const kernel = await start({ amqp_url: rabbitUrl, check_amqp_queues: `${queues.served},${queues.idle}` });
    expect(await summary(kernel)).toMatchObject({ amqp: `No consumer for queue ${queues.idle}`, overall: false });
  });

  it('names an overloaded queue with its count of ready messages', async () => {
    const kernel = await start({ amqp_url: rabbitUrl, check_amqp_queues: queues.loaded, check_amqp_limit_size: 8 });
    expect(await summary(kernel)).toMatchObject({ amqp: `Queue ${queues.loaded} is overloaded (9 ready messages)`, overall: false });
    expect(await summary(kernel, '?criticals=database')).toMatchObject({ overall: true });
  });

  it('names a queue it cannot inspect', async () => {
    const kernel = await start({ amqp_url: rabbitUrl, check_amqp_queues: queues.locked });
    const { amqp } = await summary(kernel);
    expect(amqp).toMatch(new RegExp(`^Failed to check queue ${queues.locked}: .*405 \\(RESOURCE-LOCKED\\)`));
  });

  it('names a missing exchange', async () => {
    const kernel = await start({ amqp_url: rabbitUrl, amqp_exchange: `${prefix}-events` });
    expect(await summary(kernel)).toMatchObject({ amqp: `Missing exchange ${prefix}-events`, overall: false });
  });

  it('reports refused credentials', async () => {
    const kernel = await start({ amqp_url: 'amqp://guest:wrong-password@127.0.0.1:5672' });
    const { amqp } = await summary(kernel);
    expect(amqp).toMatch(/^Failed to connect: Handshake terminated by server: 403 \(ACCESS-REFUSED\)/);
    expect(amqp).not.toContain('wrong-password');
  });

  it('reports a broker that refuses the test message', async () => {
    // A full queue that rejects publishes, named like the probe's routing key: the broker nacks the test message.
    await channel.assertQueue(probeRoutingKey, { expires, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
    try {
      const kernel = await start({ amqp_url: rabbitUrl });
      expect(await summary(kernel)).toMatchObject({ amqp: 'Failed to publish: the broker refused the test message', overall: false });
    } finally {
      await channel.deleteQueue(probeRoutingKey);
    }
  });
});

describeWithService('Redis', await tcpReachable('127.0.0.1', 6379), () => {
  it('answers "" when the ECHO round trip works', async () => {
    const kernel = await start({ redis_url: redisUrl });
    expect(await summary(kernel)).toMatchObject({ cache: '', overall: true });
  });

  it('reports refused credentials', async () => {
    const kernel = await start({ redis_url: 'redis://nobody:wrong-password@127.0.0.1:6379' });
    expect(await summary(kernel)).toMatchObject({ cache: 'Failed to connect to Redis: WRONGPASS invalid username-password pair or user is disabled.', overall: false });
  });

  it('reports an ECHO the server refuses', async () => {
    const user = `vigie-healthcheck-test-${randomUUID().slice(0, 8)}`;
    const admin = new Redis(redisUrl);
    try {
      await admin.call('ACL', 'SETUSER', user, 'on', '>secret', 'resetkeys', '-@all', '+auth', '+hello', '+info', '+client');
      const kernel = await start({ redis_url: `redis://${user}:secret@127.0.0.1:6379` });
      expect(await summary(kernel)).toMatchObject({ cache: `Redis ECHO failed: NOPERM this user has no permissions to run the 'echo' command`, overall: false });
    } finally {
      await admin.call('ACL', 'DELUSER', user);
      admin.disconnect();
    }
  });
});
