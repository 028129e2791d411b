// Two nodes on one PostgreSQL database: an event-filter rule written through node A applies to the next event node B
// processes, because the store's change notification reaches B's rule cache (#27). The injected clock stands still,
// so the cache's periodic refresh never stands in for the notification: without it, B applies the rules it held.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { check, recordingFeature } from '@vigie/events/testing';
import { changeHeard, describeWithService, ManualClock, tcpReachable } from '@vigie/kernel-testing';
import { postgresStoreFactory } from '@vigie/store-postgres';
import { createTestDatabase, type TestDatabase } from '@vigie/store-postgres/testing';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { eventFilterFeature } from '../src/index.js';
import { throughPipeline } from './fixtures/through-pipeline.js';

const available = await tcpReachable('127.0.0.1', 5432);

interface Node {
  t: TestKernel;
  recorder: ReturnType<typeof recordingFeature>;
}

describeWithService('PostgreSQL', available, () => {
  const clock = new ManualClock(Date.UTC(2025, 2, 1, 8, 0, 0));
  let database: TestDatabase;
  let nodeA: Node;
  let nodeB: Node;

  beforeAll(async () => {
    database = await createTestDatabase();
    const node = async (): Promise<Node> => {
      const recorder = recordingFeature([{ name: 'out', order: 300 }]);
      const t = await startFeatureTest({
        features: [eventsFeature, contextGraphFeature, eventFilterFeature, recorder.feature],
        store: postgresStoreFactory(),
        config: { 'webserver.conf': { store: { url: database.url, pool_size: 4 } } },
        clock,
      });
      return { t, recorder };
    };
    // One after the other: the first makes the administrator account, the second finds it.
    nodeA = await node();
    nodeB = await node();
  });

  afterAll(async () => {
    await nodeB?.t.stop();
    await nodeA?.t.stop();
    await database?.drop();
  });

  /** Sends events to the node and returns those that came out of its pipeline, in the order they were sent. */
  const through = ({ t, recorder }: Node, ...events: Record<string, unknown>[]) => throughPipeline(t, recorder, ...events);

  /** Writes through node A with `write`, and waits until node B's store has heard that `eventfilter` changed. */
  async function writtenOnAHeardOnB(write: () => Promise<{ status: number; body: unknown }>): Promise<void> {
    // B's rule cache listened before this test did, so it heard first.
    const heard = changeHeard(nodeB.t.kernel.store, 'eventfilter');
    const res = await write();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await heard;
  }

  it('a rule created, changed or deleted through node A applies to the next event node B processes', async () => {
    // B processes an event first, so that its pipeline holds the rules (none) as they were then.
    expect(await through(nodeB, check({ resource: 'disk' }), check({ resource: 'cpu' }))).toMatchObject([{ output: 'disk full' }, { resource: 'cpu' }]);

    await writtenOnAHeardOnB(() => nodeA.t.post('/api/v2/eventfilter/rules', { _id: 'drop-cpu', type: 'drop', pattern: { resource: 'cpu' } }));
    await writtenOnAHeardOnB(() =>
      nodeA.t.post('/api/v2/eventfilter/rules', { _id: 'enrich-disk', type: 'enrichment', pattern: { resource: 'disk' }, actions: [{ type: 'set_field', name: 'Output', value: 'v1' }] }),
    );
    expect(await through(nodeB, check({ resource: 'disk' }), check({ resource: 'cpu' }))).toMatchObject([{ resource: 'disk', output: 'v1' }]);

    await writtenOnAHeardOnB(() =>
      nodeA.t.put('/api/v2/eventfilter/rules/enrich-disk', { type: 'enrichment', pattern: { resource: 'disk' }, actions: [{ type: 'set_field', name: 'Output', value: 'v2' }] }),
    );
    await writtenOnAHeardOnB(() => nodeA.t.delete('/api/v2/eventfilter/rules/drop-cpu'));
    expect(await through(nodeB, check({ resource: 'disk' }), check({ resource: 'cpu' }))).toMatchObject([{ resource: 'disk', output: 'v2' }, { resource: 'cpu' }]);
  });
});
