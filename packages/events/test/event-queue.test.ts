import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@vigie/documents';
import { featureStoreOf } from '@vigie/kernel-testing';
import { EventQueueRepository, progressCollection, queueCollection, type AcceptedEvent } from '../src/event-queue.js';
import { check } from '../src/testing.js';

const accepted = (count: number, from = 0): AcceptedEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    _id: `${String(from + i).padStart(11, '0')}-000000-node1`,
    node: 'node1',
    entity: `r${from + i}/host`,
    accepted_at: 1000,
    event: check({ resource: `r${from + i}` }) as AcceptedEvent['event'],
  }));

describe('the durable event queue', () => {
  it('stores the events of one acceptance together, and gives back only those not settled after a restart', async () => {
    const store = createMemoryStore();
    const queue = new EventQueueRepository(featureStoreOf(store));
    const { queued, documents } = await queue.insert(accepted(5));
    expect(documents).toBe(1);
    expect(new Set(queued.map((e) => e.batch)).size).toBe(1);
    expect(await store.collection(queueCollection.name).count()).toBe(1);

    const batch = queued[0]?.batch as string;
    await queue.settle([], new Map([[batch, { node: 'node1', ids: [queued[0]?._id as string, queued[2]?._id as string] }]]));
    await queue.settle([], new Map([[batch, { node: 'node1', ids: [queued[4]?._id as string] }]]));
    const restarted = new EventQueueRepository(featureStoreOf(store));
    expect((await restarted.pending('node1')).map((e) => e.entity)).toEqual(['r1/host', 'r3/host']);
    expect(await restarted.pending('node2')).toEqual([]);

    await restarted.settle([queued[0]?.batch as string], new Map());
    expect(await restarted.pending('node1')).toEqual([]);
    expect(await store.collection(queueCollection.name).count()).toBe(0);
    expect(await store.collection(progressCollection.name).count()).toBe(0);
  });

  it('splits a large acceptance into documents of 1,000 events and resumes ids after the last one queued', async () => {
    const store = createMemoryStore();
    const queue = new EventQueueRepository(featureStoreOf(store));
    const { queued, documents } = await queue.insert(accepted(2500));
    expect(documents).toBe(3);
    expect(await store.collection(queueCollection.name).count()).toBe(3);
    expect(new Set(queued.map((e) => e.batch)).size).toBe(3);
    expect(await queue.lastId('node1')).toBe(queued.at(-1)?._id);
    expect((await queue.pending('node1')).map((e) => e._id)).toEqual(queued.map((e) => e._id));
  });

  it('still reads the one-event documents an older version queued', async () => {
    const store = createMemoryStore();
    const [old] = accepted(1);
    await store.collection(queueCollection.name).insertOne({ ...(old as AcceptedEvent) });
    const queue = new EventQueueRepository(featureStoreOf(store));
    const pending = await queue.pending('node1');
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ _id: old?._id, entity: 'r0/host', batch: old?._id });
    expect(await queue.lastId('node1')).toBe(old?._id);
    await queue.settle([old?._id as string], new Map());
    expect(await queue.pending('node1')).toEqual([]);
  });
});
