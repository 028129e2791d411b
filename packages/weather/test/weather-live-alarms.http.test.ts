import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { alarmsFeature } from '@vigie/alarms';
import { entitiesChangedEvent, contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import { eventually, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { weatherFeature, type DependencyEntry, type WatcherEntry } from '../src/index.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const check = (overrides: Record<string, unknown>) => ({
  event_type: 'check',
  connector: 'nagios',
  connector_name: 'edc',
  source_type: 'resource',
  component: 'host1',
  resource: 'disk',
  state: 0,
  output: 'checked',
  ...overrides,
});

it('colours the tile and its dependency from alarms the events raised', async () => {
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, weatherFeature], clock: new ManualClock(Date.UTC(2025, 0, 1)) });
  const kernel = t;
  await kernel.kernel.store.collection('default_entities').insertOne({
    _id: 'shop',
    name: 'Web shop',
    type: 'watcher',
    enabled: true,
    infos: {},
    depends: ['disk/host1'],
    impact: [],
    entities: [{ _id: 'disk/host1' }],
  });
  const tile = async () => ((await kernel.get(`/api/v2/weather/watchers/${encodeURIComponent('{}')}`)).body as WatcherEntry[]).find((e) => e.entity_id === 'shop')!;
  const dependency = async () => ((await kernel.get('/api/v2/weather/watchers/shop')).body as DependencyEntry[])[0]!;
  const send = async (event: Record<string, unknown>, until: () => Promise<boolean>) => {
    expect((await kernel.post('/api/v2/event', event)).status).toBe(200);
    await eventually(until, Boolean, 'the weather to follow the event');
  };

  // Written behind the context graph's back, then announced as the context graph announces its changes.
  await kernel.kernel.eventBus.emit(entitiesChangedEvent, { ids: ['shop'] });

  expect(await tile()).toMatchObject({ tileColor: 'ok', isActionRequired: false });
  // The watcher engine raises the watcher's alarm from its dependency's.
  await send(check({ state: 2, output: 'disk full' }), async () => (await tile()).tileColor === 'major');
  expect(await tile()).toMatchObject({ isActionRequired: true, state: { val: 2 }, connector: 'watcher', connector_name: 'watcher', component: 'shop' });
  expect(await dependency()).toMatchObject({ entity_id: 'disk/host1', state: { val: 2 } });

  await send(check({ event_type: 'ack', output: 'on it' }), async () => !(await tile()).isActionRequired);
  expect((await tile()).tileColor).toBe('major');
  await send(check({ state: 3 }), async () => (await tile()).tileColor === 'critical');
  await send(check({ state: 0 }), async () => (await tile()).tileColor === 'ok');
});
