// Two nodes on one PostgreSQL database: a webhook written through node A fires for the next alarm node B creates,
// because the store's change notification reaches B's webhook cache (#27). The injected clock stands still, so the
// cache's periodic refresh never stands in for the notification: without it, no delivery is recorded and the wait fails.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { changeHeard, describeWithService, ManualClock, tcpReachable } from '@vigie/kernel-testing';
import { postgresStoreFactory } from '@vigie/store-postgres';
import { createTestDatabase, type TestDatabase } from '@vigie/store-postgres/testing';
import { startFeatureTest, waitFor, type TestKernel } from '@vigie/testkit';
import { check, createWebhook, listDeliveries, openAlarms, sendEvents, startTarget, webhook, webhookFeatures, type Target } from './harness.js';

const available = await tcpReachable('127.0.0.1', 5432);

describeWithService('PostgreSQL', available, () => {
  const clock = new ManualClock(Date.UTC(2025, 2, 1, 8, 0, 0));
  let database: TestDatabase;
  let target: Target;
  let nodeA: TestKernel;
  let nodeB: TestKernel;

  beforeAll(async () => {
    database = await createTestDatabase();
    target = await startTarget();
    const node = () =>
      startFeatureTest({ features: webhookFeatures, store: postgresStoreFactory(), config: { 'webserver.conf': { store: { url: database.url, pool_size: 4 } } }, clock });
    // One after the other: the first makes the administrator account, the second finds it.
    nodeA = await node();
    nodeB = await node();
  });

  afterAll(async () => {
    await nodeB?.stop();
    await nodeA?.stop();
    await target?.close();
    await database?.drop();
  });

  it('a webhook written through node A fires for the next alarm node B creates', async () => {
    // B raises an alarm first, so that its engine holds the webhooks (none) as they were then.
    await sendEvents(nodeB, check({ resource: 'before' }));
    await waitFor(async () => (await openAlarms(nodeB)).some((alarm) => alarm.d === 'before/host'), 'the first alarm on node B');
    expect(await listDeliveries(nodeB)).toEqual([]);

    // Told once B's store hears that `webhooks` changed: its webhook cache listened before this test did, so it heard first.
    const heard = changeHeard(nodeB.kernel.store, 'webhooks');
    const id = await createWebhook(nodeA, webhook({ request: { url: `${target.url}/hook`, payload: '{{ .Entity.ID }}' } }));
    await heard;
    await sendEvents(nodeB, check({ resource: 'after' }));
    const [delivery] = await waitFor(async () => {
      const deliveries = await listDeliveries(nodeB, `?webhook=${encodeURIComponent(id)}`);
      return deliveries.length > 0 ? deliveries : undefined;
    }, 'a delivery of the webhook written through node A, for the alarm node B created');
    expect(delivery?.trigger).toBe('create');
    const body = await waitFor(() => target.received.find((request) => request.url === '/hook')?.body, 'the request of the delivery');
    expect(body).toBe('after/host');
  });
});
