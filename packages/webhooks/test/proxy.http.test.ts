// Webhook requests go through the proxy of HTTP_PROXY unless NO_PROXY names the target (a real CONNECT proxy).
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { check, createWebhook, eventually, listDeliveries, sendEvents, startTarget, webhook, webhookFeatures, type Target } from './harness.js';

let target: Target;
let proxy: Server;
let proxyUrl: string;
let tunnels: string[];
let t: TestKernel | undefined;

beforeEach(async () => {
  target = await startTarget();
  tunnels = [];
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await t?.stop();
  t = undefined;
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await target.close();
});

async function deliverThrough(env: Record<string, string>): Promise<void> {
  t = await startFeatureTest({ features: webhookFeatures, env });
  const id = await createWebhook(t, webhook({ request: { url: `${target.url}/via` } }));
  await sendEvents(t, check());
  const [delivery] = await eventually(() => listDeliveries(t!, `?webhook=${id}`), (d) => d[0]?.status === 'succeeded');
  expect(delivery!.attempts).toHaveLength(1);
  expect(target.received.map((r) => r.url)).toEqual(['/via']);
}

describe('proxy variables', () => {
  it('sends through the HTTP_PROXY proxy', async () => {
    await deliverThrough({ HTTP_PROXY: proxyUrl, NO_PROXY: '' });
    expect(tunnels).toEqual([new URL(target.url).host]);
  });

  it('goes straight to a target NO_PROXY names', async () => {
    await deliverThrough({ HTTP_PROXY: proxyUrl, NO_PROXY: 'example.org,127.0.0.1' });
    expect(tunnels).toEqual([]);
  });
});
