import { randomBytes } from 'node:crypto';
import { connect } from 'amqplib';
import { afterEach, expect, it } from 'vitest';
import { describeWithService, tcpReachable } from '@vigie/kernel-testing';
import type { TestKernel } from '@vigie/testkit';
import { check, send, startLive, type Notice } from './harness.js';
import { SseClient } from './sse-client.js';

const url = 'amqp://guest:guest@127.0.0.1:5672';

describeWithService('RabbitMQ', await tcpReachable('127.0.0.1', 5672), () => {
  const kernels: TestKernel[] = [];
  const clients: SseClient[] = [];
  let prefix = '';

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const kernel of kernels.splice(0)) await kernel.stop();
    const broker = await connect(url);
    const channel = await broker.createChannel();
    for (const suffix of ['intake', 'dead', 'p0']) await channel.deleteQueue(`${prefix}.${suffix}`);
    await channel.deleteExchange(`${prefix}.alarm-stream`);
    await channel.deleteExchange(`${prefix}.events`);
    await broker.close();
  });

  /** Two nodes sharing a fresh broker prefix, each with a stream of every alarm open. */
  async function twoNodes(): Promise<{ a: TestKernel; b: TestKernel; onA: SseClient; onB: SseClient }> {
    prefix = `vigie-test-${randomBytes(4).toString('hex')}`;
    const amqp = { amqp: { url, exchange: `${prefix}.events`, queue_prefix: prefix, partitions: '1' } };
    const nodes = [];
    for (let n = 0; n < 2; n++) {
      const { t } = await startLive({}, amqp);
      kernels.push(t);
      nodes.push(t);
    }
    const [a, b] = nodes as [TestKernel, TestKernel];
    const onA = await SseClient.open(a.url, '/api/v2/alarms/stream');
    const onB = await SseClient.open(b.url, '/api/v2/alarms/stream');
    clients.push(onA, onB);
    return { a, b, onA, onB };
  }

  it('brings the changes made on one node to the streams held by another, once each', async () => {
    const { a, b, onA, onB } = await twoNodes();

    await send(a, check({ resource: 'from-a', state: 2 }));
    await send(b, check({ resource: 'from-b', state: 3 }));
    for (const client of [onA, onB]) {
      await client.until((c) => c.messages().length === 2, 'both nodes\' changes');
      expect(client.messages<Notice>().map((n) => `${n.type} ${n.alarm.d}`).sort()).toEqual(['create from-a/host', 'create from-b/host']);
    }
    // Nothing more arrives (no notice twice): one more change is the next message on each stream.
    await send(a, check({ resource: 'from-a', state: 3 }));
    for (const client of [onA, onB]) {
      await client.until((c) => c.messages().length === 3, 'the third change');
      expect(client.messages<Notice>()[2]).toMatchObject({ type: 'change', alarm: { d: 'from-a/host' } });
    }
  });

  it('brings a burst of changes to every node in order, once each, and reads a notice from a node of the version before', async () => {
    const { a, onA, onB } = await twoNodes();

    // A listener on the nodes' exchange, to see what travels between them.
    const broker = await connect(url);
    const channel = await broker.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, `${prefix}.alarm-stream`, '');
    const relayed: unknown[] = [];
    await channel.consume(queue, (message) => message && relayed.push(JSON.parse(message.content.toString('utf8'))), { noAck: true });

    // More changes in one request than one broker message carries (500): several messages, still in order.
    const burst = Array.from({ length: 600 }, (_, i) => check({ resource: `burst-${i}`, state: 2 }));
    await send(a, ...burst);
    const expected = burst.map((_, i) => `create burst-${i}/host`);
    for (const client of [onA, onB]) {
      await client.until((c) => c.messages().length >= 600, 'the burst', 60_000);
      expect(client.messages<Notice>().map((n) => `${n.type} ${n.alarm.d}`)).toEqual(expected);
    }
    // The notices travelled in lists of at most 500, far fewer messages than notices.
    await expect.poll(() => relayed.flat().length).toBe(600);
    expect(relayed.every((list) => Array.isArray(list) && list.length <= 500)).toBe(true);
    expect(relayed.length).toBeLessThan(60);

    // A node of the version before publishes each notice on its own, not in a list.
    const alarm = { _id: 'from-an-older-node', t: 1, d: 'older/host', v: { state: { val: 1 } } };
    channel.publish(`${prefix}.alarm-stream`, '', Buffer.from(JSON.stringify({ type: 'create', alarm, previous: null })));
    await channel.close();
    await broker.close();
    for (const client of [onA, onB]) {
      await client.until((c) => c.messages().length === 601, 'the older node\'s notice');
      expect(client.messages<Notice>()[600]).toMatchObject({ type: 'create', alarm: { _id: 'from-an-older-node' } });
    }
  });
});
