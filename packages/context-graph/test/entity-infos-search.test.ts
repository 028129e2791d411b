import { afterEach, expect, it } from 'vitest';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { eventsFeature } from '@vigie/events';
import { contextGraphFeature, entityInfosSearchRef, entityRepositoryRef, type Entity } from '../src/index.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const entity = (id: string, site: string): Entity => ({
  _id: id, name: id, type: 'resource', enabled: true, impact: [], depends: [], measurements: [], infos: { site: { name: 'site', description: 'where', value: site } }, enable_history: [], disable_history: [],
});

it('finds the infos of a commit naming a few entities or thousands (read again whole), followed or not', async () => {
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature] });
  const scope = t.kernel.scope('context-graph');
  const repository = scope.resolve(entityRepositoryRef);
  const search = scope.resolve(entityInfosSearchRef);
  const commit = (entities: Entity[], replaced: Entity[] = []) => repository.commit({ created: entities, replaced, deleted: [] });

  await commit([entity('a', 'paris')]);
  expect(await search.matching('paris', 10)).toEqual(['a']);
  // More than an eighth of the entities held, and more than a thousand: every entity is read again at the next search.
  const many = Array.from({ length: 2_000 }, (_, i) => entity(`e${i}`, i === 1_999 ? 'lyon' : 'nantes'));
  await commit(many);
  expect(await search.matching('lyon', 10)).toEqual(['e1999']);
  expect(await search.matching('paris', 10)).toEqual(['a']);
  // A few: read by id.
  await commit([], [entity('a', 'lille')]);
  expect(await search.matching('paris', 10)).toEqual([]);
  expect(await search.matching('lille', 10)).toEqual(['a']);

  // Followed: the texts are current without a search, whatever the size of the announcement.
  const stop = search.follow();
  await commit([], Array.from({ length: 2_000 }, (_, i) => entity(`e${i}`, 'rennes')));
  await expect.poll(() => search.holdsNow('e1999', 'rennes')).toBe(true);
  stop();
});
