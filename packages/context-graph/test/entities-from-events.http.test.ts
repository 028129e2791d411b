import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsFeature } from '@vigie/events';
import { check, recordingFeature } from '@vigie/events/testing';
import { ManualClock } from '@vigie/kernel';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { entitiesChangedEvent, entityRepositoryRef, contextGraphFeature, type Entity } from '../src/index.js';

const start = Date.UTC(2025, 0, 1);
let t: TestKernel;
let recorder: ReturnType<typeof recordingFeature>;
const changed: string[][] = [];
/** The entity each event carried past the entities stage, by entity id (the last one). */
const carried = new Map<string, Record<string, unknown>>();

beforeEach(async () => {
  // A stage after the entities stage (an alarms stage would be there) shows which events get that far.
  recorder = recordingFeature([{ name: 'after-entities', order: 400, act: (c) => void (c.entity && carried.set(c.entityId, structuredClone(c.entity))) }]);
  changed.length = 0;
  carried.clear();
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, recorder.feature], clock: new ManualClock(start) });
  t.kernel.eventBus.on(entitiesChangedEvent, ({ ids }) => void changed.push([...ids].sort()));
});
afterEach(() => t.stop());

const entity = async (id: string) => (await t.get(`/api/v2/entities/${encodeURIComponent(id)}`)).body as Record<string, unknown>;

async function send(events: Record<string, unknown>[], reaching: number): Promise<void> {
  const res = await t.post('/api/v2/event', events);
  expect((res.body as { sent_events: unknown[] }).sent_events).toHaveLength(events.length);
  await recorder.waitFor('after-entities', reaching);
}

describe('entities from events', () => {
  it('creates the connector, component and resource of a resource event with their links', async () => {
    await send([check()], 1);
    expect(await entity('disk/host')).toMatchObject({
      _id: 'disk/host',
      name: 'disk',
      type: 'resource',
      enabled: true,
      impact: ['host'],
      depends: ['nagios/nagios-1'],
      infos: {},
      enable_history: [start / 1000],
      component: 'host',
    });
    expect(await entity('host')).toMatchObject({ name: 'host', type: 'component', impact: ['nagios/nagios-1'], depends: ['disk/host'] });
    expect(await entity('nagios/nagios-1')).toMatchObject({ name: 'nagios-1', type: 'connector', impact: ['disk/host'], depends: ['host'] });
    expect(changed).toEqual([['disk/host', 'host', 'nagios/nagios-1']]);
    expect(recorder.seen.get('after-entities')?.[0]?.entityId).toBe('disk/host');
  });

  it('creates a component event’s connector and component, and a connector event’s connector', async () => {
    await send([check({ source_type: 'component', resource: undefined, component: 'alone' }), { ...check({ source_type: 'connector', connector: 'snmp', connector_name: 's1' }), component: undefined, resource: undefined }], 2);
    expect(await entity('alone')).toMatchObject({ type: 'component', impact: ['nagios/nagios-1'], depends: [] });
    expect(await entity('nagios/nagios-1')).toMatchObject({ type: 'connector', impact: [], depends: ['alone'] });
    expect(await entity('snmp/s1')).toMatchObject({ type: 'connector', name: 's1', impact: [], depends: [] });
  });

  it('adds the links a new resource brings and keeps what existing entities had', async () => {
    await send([check()], 1);
    const repository = t.kernel.scope('context-graph').resolve(entityRepositoryRef);
    const draft = await repository.draft(['host']);
    draft.put({ ...(draft.get('host') as Entity), infos: { owner: { name: 'owner', description: '', value: 'ops' } } });
    await repository.commit(draft.changes());
    await send([check({ resource: 'cpu' }), check({ resource: 'cpu' })], 3);
    expect(await entity('host')).toMatchObject({ infos: { owner: { value: 'ops' } }, impact: ['nagios/nagios-1'], depends: ['disk/host', 'cpu/host'] });
    expect(await entity('nagios/nagios-1')).toMatchObject({ impact: ['disk/host', 'cpu/host'], depends: ['host'] });
    // The second cpu event found everything in place: nothing written for it.
    expect(changed.at(-1)).toEqual(['cpu/host', 'host', 'nagios/nagios-1']);
    expect(changed).toHaveLength(3);
  });

  it('gives the later stages the event’s entity, and stops the events of a disabled entity there', async () => {
    await send([check()], 1);
    const repository = t.kernel.scope('context-graph').resolve(entityRepositoryRef);
    const draft = await repository.draft(['disk/host']);
    draft.put({ ...(draft.get('disk/host') as Entity), enabled: false });
    await repository.commit(draft.changes());
    await send([check({ output: 'ignored' }), check({ resource: 'cpu', output: 'kept' })], 2);
    expect(recorder.seen.get('after-entities')?.map((s) => s.event.output)).toEqual(['disk full', 'kept']);
  });

  it('creates shared entities once when events of many resources of one component arrive together', async () => {
    const events = Array.from({ length: 40 }, (_, i) => check({ resource: `r${i}` }));
    await send(events, 40);
    const host = await entity('host');
    expect((host.depends as string[]).sort()).toEqual(events.map((e) => `${String(e.resource)}/host`).sort());
    expect(((await entity('nagios/nagios-1')).impact as string[]).length).toBe(40);
  });

  it('hands later stages each entity as stored after the writes of events, long link lists included', async () => {
    // Three batches of 40 new resources: the connector's and the component's lists grow past 64 links.
    for (let batch = 0; batch < 3; batch++) {
      await send(Array.from({ length: 40 }, (_, i) => check({ resource: `r${batch * 40 + i}` })), (batch + 1) * 40);
    }
    // A resource again, and one of another component: only the new links are added.
    await send([check({ resource: 'r5' }), check({ resource: 'r5', component: 'other' })], 122);
    await send([check({ source_type: 'component', resource: undefined, component: 'host' }), { ...check({ source_type: 'connector' }), component: undefined, resource: undefined }], 124);
    for (const id of ['host', 'nagios/nagios-1']) {
      const stored = await entity(id);
      expect(carried.get(id), id).toEqual(stored);
    }
    const connector = await entity('nagios/nagios-1');
    expect(connector.impact).toHaveLength(121);
    expect(new Set(connector.impact as string[]).size).toBe(121);
    expect(connector.depends).toEqual(['host', 'other']);
  });
});
