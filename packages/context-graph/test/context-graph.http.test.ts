import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { eventsFeature } from '@vigie/events';
import { entitiesChangedEvent, entityRepositoryRef, contextGraphFeature, type Entity } from '../src/index.js';

let t: TestKernel;
const changed: (readonly string[])[] = [];

function entity(id: string, fields: Partial<Entity> = {}): Entity {
  return { _id: id, name: id, type: 'resource', enabled: true, impact: [], depends: [], measurements: [], infos: {}, enable_history: [], disable_history: [], ...fields };
}

const repository = () => t.kernel.scope('context-graph').resolve(entityRepositoryRef);

beforeAll(async () => {
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature] });
  t.kernel.eventBus.on(entitiesChangedEvent, ({ ids }) => void changed.push(ids));
  // Written the way imports write: a draft, then one atomic commit.
  const draft = await repository().draft(['disk/host', 'host', 'cpu/host', 'poller/nagios', 'watcher-1']);
  draft.put(entity('host', { type: 'component', name: 'Host', infos: { site: { name: 'site', description: 'where', value: 'paris' } } }));
  draft.put(entity('disk/host', { impact: ['host'], measurements: ['free'] }));
  draft.put(entity('cpu/host', { impact: ['host'], enabled: false, disable_history: [1500000000] }));
  draft.put(entity('poller/nagios', { type: 'connector', depends: ['host'] }));
  draft.put({ ...entity('watcher-1', { type: 'watcher' }), output_template: '{{.State}}' });
  await repository().commit(draft.changes());
});

afterAll(() => t.stop());

describe('the entity repository', () => {
  it('commits a draft with reciprocal links and announces the changed ids', async () => {
    expect(changed).toEqual([['host', 'disk/host', 'cpu/host', 'poller/nagios', 'watcher-1']]);
    expect((await repository().get('host'))?.depends).toEqual(['disk/host', 'cpu/host']);
    expect((await repository().get('host'))?.impact).toEqual(['poller/nagios']);
  });
});

describe('GET /api/v2/entities/<id>', () => {
  it('answers the entity, with a slash in its id sent raw or encoded', async () => {
    const raw = await t.get('/api/v2/entities/disk/host');
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({
      _id: 'disk/host',
      name: 'disk/host',
      type: 'resource',
      enabled: true,
      impact: ['host'],
      depends: [],
      measurements: ['free'],
      infos: {},
      enable_history: [],
      disable_history: [],
    });
    expect((await t.get('/api/v2/entities/disk%2Fhost')).body).toEqual(raw.body);
  });

  it('shows the fields an entity carries beyond the model', async () => {
    expect((await t.get('/api/v2/entities/watcher-1')).body).toMatchObject({ _id: 'watcher-1', type: 'watcher', output_template: '{{.State}}' });
  });

  it('answers 404 to an unknown id', async () => {
    const res = await t.get('/api/v2/entities/nope/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ name: '', description: 'No entity with id nope/nothing' });
  });

  it('needs credentials', async () => {
    expect((await t.get('/api/v2/entities/host', { auth: false })).status).toBe(401);
  });
});

describe('GET /api/v2/entities', () => {
  const ids = (body: unknown) => (body as { data: { _id: string }[] }).data.map((e) => e._id);

  it('lists every entity by id, with the total and the page size', async () => {
    const res = await t.get('/api/v2/entities');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, count: 5 });
    expect(ids(res.body)).toEqual(['cpu/host', 'disk/host', 'host', 'poller/nagios', 'watcher-1']);
    expect((await t.get('/api/v2/entities/')).status).toBe(200);
  });

  it('filters with a MongoDB-style filter', async () => {
    const byType = await t.get(`/api/v2/entities?filter=${encodeURIComponent('{"type": "resource"}')}`);
    expect(ids(byType.body)).toEqual(['cpu/host', 'disk/host']);
    const nested = await t.get(`/api/v2/entities?filter=${encodeURIComponent('{"$or": [{"enabled": false}, {"infos.site.value": {"$regex": "^par"}}]}')}`);
    expect(ids(nested.body)).toEqual(['cpu/host', 'host']);
    const linked = await t.get(`/api/v2/entities?filter=${encodeURIComponent('{"impact": "host"}')}`);
    expect(ids(linked.body)).toEqual(['cpu/host', 'disk/host']);
  });

  it('pages and sorts', async () => {
    const page = await t.get('/api/v2/entities?sort=type&direction=desc&start=1&limit=2');
    expect(page.body).toMatchObject({ total: 5, count: 2 });
    // watcher, then resources by id, then connector, component.
    expect(ids(page.body)).toEqual(['cpu/host', 'disk/host']);
    expect(ids((await t.get('/api/v2/entities?limit=1000')).body)).toHaveLength(5);
  });

  it.each([
    ['limit=1001', 'Invalid entity query: limit must be less than or equal to 1000'],
    ['limit=0', 'Invalid entity query: limit must be greater than or equal to 1'],
    ['limit=ten', 'Invalid entity query: limit must be an integer'],
    ['limit=1.5', 'Invalid entity query: limit must be an integer'],
    ['start=-1', 'Invalid entity query: start must be greater than or equal to 0'],
    ['direction=up', 'Invalid entity query: direction must be ASC or DESC'],
    ['sort=%24where', 'Invalid entity query: sort must be a field path such as name or infos.site.value'],
    ['sort=a..b', 'Invalid entity query: sort must be a field path such as name or infos.site.value'],
    ['limit=1&limit=2', 'Invalid entity query: limit is given more than once'],
    [`filter=${encodeURIComponent('{"type": ')}`, /^Invalid filter: not valid JSON \(.+\)$/],
    [`filter=${encodeURIComponent('[1]')}`, 'Invalid filter: the filter must be a JSON object'],
    [`filter=${encodeURIComponent('{"$where": "sleep(1000)"}')}`, 'Invalid filter: operator $where is not allowed'],
    [`filter=${encodeURIComponent('{"$ne": null}')}`, /^Invalid filter: unknown top level operator \$ne/],
    [`filter=${encodeURIComponent('{"name": {"$regex": "(a+)+$"}}')}`, 'Invalid filter: nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions'],
  ])('answers 400 to %s', async (query, description) => {
    const res = await t.get(`/api/v2/entities?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: '', description: typeof description === 'string' ? description : expect.stringMatching(description) });
  });
});
