import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type ChannelModel } from 'amqplib';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeWithService, onLines, spawnSource, tcpReachable } from '@vigie/kernel-testing';
import { startFeatureTest, waitFor, type TestKernel } from '@vigie/testkit';
import { eventsAmqpFeature, eventsFeature } from '../src/index.js';
import { check, recordingFeature } from '../src/testing.js';

const url = 'amqp://guest:guest@127.0.0.1:5672';

describeWithService('RabbitMQ', await tcpReachable('127.0.0.1', 5672), () => {
  let broker: ChannelModel;
  let exchange: string;
  let prefix: string;
  const kernels: TestKernel[] = [];

  beforeEach(async () => {
    const run = randomBytes(4).toString('hex');
    exchange = `vigie-test-${run}.events`;
    prefix = `vigie-test-${run}`;
    broker = await connect(url);
  });

  afterEach(async () => {
    for (const kernel of kernels.splice(0)) await kernel.stop();
    const channel = await broker.createChannel();
    for (const suffix of ['intake', 'dead', 'p0', 'p1', 'p2', 'p3']) await channel.deleteQueue(`${prefix}.${suffix}`);
    await channel.deleteExchange(exchange);
    await broker.close();
  });

  async function node(amqp: Record<string, string> = {}) {
    const recorder = recordingFeature([{ name: 'seen', order: 1000 }]);
    const kernel = await startFeatureTest({
      features: [eventsFeature, eventsAmqpFeature, recorder.feature],
      config: { 'webserver.conf': { amqp: { url, exchange, queue_prefix: prefix, partitions: '4', ...amqp } } },
    });
    kernels.push(kernel);
    return { kernel, recorder };
  }

  /** Waits until a node consumes the intake queue: the exchange, the queues and their bindings are in place. */
  async function exchangeReady(queue = 'intake'): Promise<void> {
    await waitFor(async () => {
      const channel = await broker.createChannel();
      channel.on('error', () => undefined);
      try {
        const intake = await channel.checkQueue(`${prefix}.${queue}`);
        await channel.close();
        return intake.consumerCount > 0;
      } catch {
        return false; // Not declared yet.
      }
    }, `a node consuming ${prefix}.${queue}`);
  }

  it.each([
    ['straight from the intake queue (one node takes every partition)', {}],
    ['through the partition queues (preferred partitions)', { preferred_partitions: '0-3' }],
  ])('declares the exchange, queues the events published to it %s, and dead-letters malformed messages with their reason', async (_, amqp) => {
    const { recorder } = await node(amqp);
    await exchangeReady();
    const channel = await broker.createConfirmChannel();
    const publish = (content: string | Buffer) => channel.publish(exchange, 'nagios.nagios-1.check.resource.host.disk', Buffer.isBuffer(content) ? content : Buffer.from(content));
    publish(JSON.stringify(check({ output: 'first' })));
    publish('{not json');
    publish(JSON.stringify(check({ state: 7 })));
    publish(Buffer.from([0x7b, 0xff, 0x7d]));
    publish(JSON.stringify([check({ output: 'second', resource: 'cpu' }), { event_type: 'check' }]));
    publish(JSON.stringify(check({ output: 'lone \ud800 surrogate' })));
    // No body parser bounds what arrives over AMQP: a value nested 100,000 deep or a 1 MB string is refused, not stored.
    const deep = JSON.stringify(check({ output: 'deep' })).replace(/}$/, `,"nested":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    publish(deep);
    publish(JSON.stringify(check({ custom: 'x'.repeat(1_000_000) })));
    publish(JSON.stringify(check({ output: 'third', resource: 'mem' })));
    await channel.waitForConfirms();
    await recorder.waitFor('seen', 3);
    expect(recorder.seen.get('seen')?.map((s) => `${s.entityId} ${String(s.event.output)}`).sort()).toEqual(['cpu/host second', 'disk/host first', 'mem/host third']);

    const dead: { reason: unknown; body: string }[] = [];
    await waitFor(async () => {
      const message = await channel.get(`${prefix}.dead`, { noAck: true });
      if (message) dead.push({ reason: message.properties.headers?.['x-vigie-reason'], body: message.content.toString('latin1') });
      return dead.length >= 7;
    }, 'the seven dead-lettered messages');
    expect(dead.map((d) => d.reason)).toEqual([
      expect.stringMatching(/^the message is not JSON: /),
      'state: state must be an integer between 0 and 3',
      'the message is not valid UTF-8 text',
      'source_type: source_type must be one of connector, component, resource, metaalarm, service',
      'output: output is not valid UTF-8 text',
      'nested: nested is nested deeper than 512 levels',
      'custom: custom must be at most 65536 characters',
    ]);
    expect(dead[0]?.body).toBe('{not json');
    expect(JSON.parse(dead[3]?.body ?? '')).toEqual({ event_type: 'check' });
  });

  it('without preferred partitions, also processes what an earlier configuration left in the partition queues', async () => {
    const channel = await broker.createConfirmChannel();
    await channel.assertQueue(`${prefix}.p2`, { durable: true, arguments: { 'x-single-active-consumer': true } });
    channel.sendToQueue(`${prefix}.p2`, Buffer.from(JSON.stringify([check({ output: 'left over' })])), { persistent: true });
    await channel.waitForConfirms();
    const { recorder } = await node();
    await exchangeReady();
    channel.publish(exchange, 'x', Buffer.from(JSON.stringify(check({ output: 'new', resource: 'cpu' }))), { persistent: true });
    await channel.waitForConfirms();
    await recorder.waitFor('seen', 2);
    expect(recorder.seen.get('seen')?.map((s) => String(s.event.output)).sort()).toEqual(['left over', 'new']);
  });

  it('keeps each entity’s events in order with two nodes consuming the partitions', async () => {
    const a = await node({ preferred_partitions: '0-1', standby_delay: '3s' });
    await exchangeReady();
    const b = await node({ preferred_partitions: '2-3', standby_delay: '3s' });
    // Node b is the active consumer of p2 and p3 once it consumes them (node a stands by for them later).
    await exchangeReady('p2');
    await exchangeReady('p3');
    const channel = await broker.createConfirmChannel();
    const entities = 12;
    const perEntity = 40;
    for (let seq = 0; seq < perEntity; seq++) {
      for (let e = 0; e < entities; e++) channel.publish(exchange, 'x', Buffer.from(JSON.stringify(check({ resource: `r${e}`, seq }))), { persistent: true });
    }
    await channel.waitForConfirms();
    const total = () => (a.recorder.seen.get('seen')?.length ?? 0) + (b.recorder.seen.get('seen')?.length ?? 0);
    await waitFor(() => total() >= entities * perEntity, 'every event');
    expect(total()).toBe(entities * perEntity);

    const byEntity = new Map<string, { node: string; seq: number }[]>();
    for (const [name, n] of [['a', a], ['b', b]] as const) {
      for (const s of n.recorder.seen.get('seen') ?? []) {
        const list = byEntity.get(s.entityId) ?? [];
        list.push({ node: name, seq: s.event.seq as number });
        byEntity.set(s.entityId, list);
      }
    }
    expect(byEntity.size).toBe(entities);
    for (const [, list] of byEntity) {
      // One node handles an entity, and sees its events exactly once, in the order they were published.
      expect(new Set(list.map((l) => l.node)).size).toBe(1);
      expect(list.map((l) => l.seq)).toEqual(Array.from({ length: perEntity }, (_, i) => i));
    }
    expect(a.recorder.seen.get('seen')?.length).toBeGreaterThan(0);
    expect(b.recorder.seen.get('seen')?.length).toBeGreaterThan(0);
  });

  it('after a kill -9, processes every event it acknowledged, and the broker delivers none of them again', async () => {
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-amqp-crash-'));
    const env = { AMQP_URL: url, AMQP_EXCHANGE: exchange, AMQP_PREFIX: prefix };
    const fixture = fileURLToPath(new URL('./fixtures/amqp-node.ts', import.meta.url));
    const start = (extra: Record<string, string>) => {
      const child = spawnSource(fixture, [installDir], { ...env, ...extra });
      const lines: string[] = [];
      onLines(child.stdout, (line) => void lines.push(line));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      return { child, lines, exited };
    };
    const seen = (lines: string[]) => lines.filter((l) => l.startsWith('SEEN ')).map((l) => l.split(' ').slice(1));
    const first = start({ HOLD: '1' });
    try {
      await waitFor(() => first.lines.includes('READY'), 'the first node');
      await exchangeReady();
      const channel = await broker.createConfirmChannel();
      const resources = 10;
      const perResource = 3;
      for (let seq = 0; seq < perResource; seq++) {
        for (let r = 0; r < resources; r++) channel.publish(exchange, 'x', Buffer.from(JSON.stringify(check({ resource: `r${r}`, seq }))), { persistent: true });
      }
      await channel.waitForConfirms();
      // Every event accepted (queued, its message acknowledged); the 2 lanes hold one event each, unfinished.
      await waitFor(() => first.lines.includes(`ACCEPTED ${resources * perResource}`) && seen(first.lines).length === 2, 'every event accepted');
      // Lets the acknowledgements, sent right after the write, leave the process.
      await new Promise((resolve) => setTimeout(resolve, 300));
      first.child.kill('SIGKILL');
      await first.exited;

      const second = start({});
      try {
        await waitFor(() => seen(second.lines).length >= resources * perResource, 'every event after the restart');
        await new Promise((resolve) => setTimeout(resolve, 300));
        const after = seen(second.lines);
        // Each event once after the restart (the two held ones again, with the ids they were accepted under)...
        expect(after).toHaveLength(resources * perResource);
        expect(new Set(after.map(([, resource, seq]) => `${resource} ${seq}`)).size).toBe(resources * perResource);
        for (const [id, resource, seq] of seen(first.lines)) expect(after).toContainEqual([id, resource, seq]);
        // ... in order per resource, and nothing left in the intake queue.
        for (let r = 0; r < resources; r++) {
          expect(after.filter(([, resource]) => resource === `r${r}`).map(([, , seq]) => Number(seq))).toEqual([0, 1, 2]);
        }
        expect((await channel.checkQueue(`${prefix}.intake`)).messageCount).toBe(0);
      } finally {
        second.child.kill('SIGKILL');
        await second.exited;
      }
    } finally {
      first.child.kill('SIGKILL');
      rmSync(installDir, { recursive: true, force: true });
    }
  });
});
