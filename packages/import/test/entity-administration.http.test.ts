// Entity administration through /api/v2/entities: the import's rules (reciprocal links), what listens to
// context-graph.entities-changed (pbehavior eids, watcher dependencies), bulk enable/disable with 207, comments.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import { expectError, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { weatherFeature } from '@vigie/weather';
import { importFeature } from '../src/index.js';

let t: TestKernel;
beforeEach(async () => {
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, weatherFeature, importFeature] });
});
afterEach(() => t.stop());

const entity = async (id: string) => (await t.get(`/api/v2/entities/${encodeURIComponent(id)}`)).body as Record<string, unknown>;

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 8000;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('entity administration', () => {
  it('creates, updates and deletes entities keeping links reciprocal', async () => {
    expect((await t.post('/api/v2/entities', { _id: 'host', type: 'component' })).status).toBe(200);
    const created = await t.post('/api/v2/entities', { _id: 'disk/host', type: 'resource', name: 'disk', impact: ['host'], infos: { dc: { value: 'paris' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ _id: 'disk/host', name: 'disk', impact: ['host'], enabled: true });
    expect(await entity('host')).toMatchObject({ depends: ['disk/host'] });

    const updated = await t.put('/api/v2/entities/disk/host', { impact: [] });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(await entity('host')).toMatchObject({ depends: [] });

    await expectError(t.post('/api/v2/entities', { _id: 'cpu/host', type: 'resource', impact: ['nowhere'] }), 400, /^invalid entity: .*nowhere/);
    await expectError(t.post('/api/v2/entities', { _id: 'host', type: 'component' }), 400, 'invalid entity: an entity with _id "host" already exists');
    await expectError(t.post('/api/v2/entities', { _id: 'x', type: 'planet' }), 400, /^invalid entity: /);
    await expectError(t.put('/api/v2/entities/ghost', { name: 'x' }), 404, 'no entity with id ghost');

    await t.put('/api/v2/entities/disk/host', { impact: ['host'] });
    expect((await t.delete('/api/v2/entities/disk/host')).body).toEqual({ deleted: 'disk/host' });
    expect(await entity('host')).toMatchObject({ depends: [] });
    await expectError(t.delete('/api/v2/entities/disk/host'), 404, 'no entity with id disk/host');
  });

  it('announces the changes: pbehavior eids and watcher dependencies follow', async () => {
    const pbh = await t.post('/api/v2/pbehavior', { name: 'paris', author: 'ops', filter: { 'infos.dc.value': 'paris' }, tstart: 1, tstop: 2 });
    expect(pbh.status).toBe(200);
    await t.post('/api/v2/entities', { _id: 'shop', type: 'watcher', name: 'Shop', entities: [{ infos: { dc: { value: 'paris' } } }] });
    await t.post('/api/v2/entities', { _id: 'disk/host', type: 'resource', infos: { dc: { value: 'paris' } } });
    await eventually(
      async () => ((await t.get('/api/v2/pbehavior')).body as { eids: string[] }[])[0]!.eids,
      (eids) => eids.includes('disk/host'),
    );
    await eventually(
      async () => (await t.get('/api/v2/weather/watchers/shop')).body as { entity_id: string }[],
      (deps) => Array.isArray(deps) && deps.some((d) => d.entity_id === 'disk/host'),
    );
    await t.delete('/api/v2/entities/disk/host');
    await eventually(
      async () => ((await t.get('/api/v2/pbehavior')).body as { eids: string[] }[])[0]!.eids,
      (eids) => !eids.includes('disk/host'),
    );
  });

  it('enables and disables one entity or many (207, one outcome per id), recording the history', async () => {
    await t.post('/api/v2/entities', { _id: 'a', type: 'component' });
    await t.post('/api/v2/entities', { _id: 'b', type: 'component' });
    const one = await t.post('/api/v2/entities/disable', { _id: 'a' });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ enabled: false });
    expect((one.body as { disable_history: number[] }).disable_history).toHaveLength(1);
    await expectError(t.post('/api/v2/entities/enable', { _id: 'ghost' }), 404, 'no entity with id ghost');

    const bulk = await t.put('/api/v2/bulk/entities/enable', [{ _id: 'a' }, { _id: 'ghost' }, { id: 'b' }, { _id: 'b' }]);
    expect(bulk.status).toBe(207);
    expect(bulk.body).toEqual([
      { id: 'a', status: 200 },
      { id: 'ghost', status: 404, error: 'no entity with id ghost' },
      { id: '', status: 400, error: 'invalid entity: _id is required' },
      { id: 'b', status: 200 },
    ]);
    expect(await entity('a')).toMatchObject({ enabled: true });
    await expectError(t.put('/api/v2/bulk/entities/enable', []), 400, 'The body must hold at least one item');
    await expectError(t.put('/api/v2/bulk/entities/disable', { _id: 'a' }), 400, 'The body must be a JSON array of items');
    await expectError(t.post('/api/v2/entities/enable'), 400, 'invalid entity: a JSON object is required');
  });

  it('comments an entity', async () => {
    await t.post('/api/v2/entities', { _id: 'a', type: 'component' });
    const comment = await t.post('/api/v2/entity-comments/a', { message: 'replaced the disk' });
    expect(comment.status).toBe(200);
    expect(comment.body).toMatchObject({ author: 'root', message: 'replaced the disk' });
    expect((await entity('a')).comments).toEqual([comment.body]);
    const id = (comment.body as { _id: string })._id;
    expect((await t.delete(`/api/v2/entity-comments/a?comment=${id}`)).body).toEqual({ deleted: id });
    expect((await entity('a')).comments).toEqual([]);
    await expectError(t.post('/api/v2/entity-comments/ghost', { message: 'x' }), 404, 'no entity with id ghost');
  });
});
