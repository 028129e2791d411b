import { afterEach, expect, it } from 'vitest';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { eventsFeature } from '@vigie/events';
import { entitiesChangedEvent, entityRepositoryRef, contextGraphFeature, type Entity } from '../src/index.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const entity = (id: string, fields: Partial<Entity> = {}): Entity => ({
  _id: id, name: id, type: 'resource', enabled: true, impact: [], depends: [], measurements: [], infos: {}, enable_history: [], disable_history: [], ...fields,
});

it('updateDepends adds and removes dependencies with their reciprocal impacts, keeps the other links, and announces the ids', async () => {
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature] });
  const repository = t.kernel.scope('context-graph').resolve(entityRepositoryRef);
  const changed: (readonly string[])[] = [];
  t.kernel.eventBus.on(entitiesChangedEvent, ({ ids }) => void changed.push(ids));
  await t.kernel.store.collection('default_entities').insertMany([
    entity('w', { type: 'watcher', depends: ['linked', 'old'] }),
    entity('linked', { impact: ['w', 'host'] }),
    entity('old', { impact: ['w'] }),
    entity('new', { impact: ['host'] }),
  ]);

  await repository.updateDepends('w', { add: ['new', 'missing', 'w'], remove: ['old'], fields: { note: 'chosen' } });

  const get = async (id: string) => (await repository.get(id))!;
  expect(await get('w')).toMatchObject({ depends: ['linked', 'new', 'missing'], note: 'chosen' });
  expect((await get('linked')).impact).toEqual(['w', 'host']);
  expect((await get('old')).impact).toEqual([]);
  expect((await get('new')).impact).toEqual(['host', 'w']);
  expect(await repository.get('missing')).toBeNull();
  expect(changed).toEqual([['w', 'new', 'missing', 'old']]);

  // Nothing to do: nothing written, nothing announced.
  await repository.updateDepends('w', { add: [], remove: [] });
  expect(changed.length).toBe(1);
});
