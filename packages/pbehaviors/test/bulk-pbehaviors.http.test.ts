// Bulk pbehavior routes: each item as its single route, 207 with one result per item; entity pbehaviors put an alarm's
// entity under a pbehavior from now (its alarm enters it at the next beat).
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';

const start = Date.UTC(2025, 0, 1, 12);
const t0 = start / 1000;
const engines = engineTests([], { start });
const body = (extra: Record<string, unknown> = {}) => ({ name: 'works', filter: { _id: 'disk/host' }, tstart: t0, tstop: t0 + 3600, author: 'me', ...extra });

describe('bulk pbehaviors', () => {
  it('creates, updates and deletes item by item with the single routes\' checks; 207 in order', async () => {
    await engines.start();
    const t = engines.h.t;
    const created = await t.post('/api/v2/bulk/pbehaviors', [body({ _id: 'p1' }), body({ _id: 'p1' }), body({ tstart: undefined }), body({ filter: { $where: 'x' } }), body()]);
    expect(created.status).toBe(207);
    const results = created.body as { id: string; status: number; error?: string }[];
    expect(results.map(({ status }) => status)).toEqual([200, 400, 400, 400, 200]);
    expect(results[0]).toEqual({ id: 'p1', status: 200 });
    expect(results[2]!.error).toBe('The fields name, filter, author, tstart, tstop are required.');
    // The single route words the same body the same way.
    const single = await t.post('/api/v2/pbehavior', body({ filter: { $where: 'x' } }));
    expect(single.body).toEqual({ name: '', description: results[3]!.error });
    const generated = results[4]!.id;

    const updated = await t.put('/api/v2/bulk/pbehaviors', [{ _id: 'p1', reason: 'moved' }, { _id: 'nope', reason: 'x' }, { _id: 'p1', tstart: 'soon' }, { reason: 'no id' }]);
    expect(updated.body).toEqual([
      { id: 'p1', status: 200 },
      { id: 'nope', status: 400, error: 'The id does not match any pbehavior' },
      { id: 'p1', status: 400, error: 'The tstart must be an integer (epoch seconds)' },
      { id: '', status: 400, error: 'The _id is required' },
    ]);
    expect(((await t.get('/pbehavior/read?_id=p1')).body as { data: { data: { reason: string }[] }[] }).data[0]!.data[0]!.reason).toBe('moved');

    const deleted = await t.delete('/api/v2/bulk/pbehaviors', { json: [{ _id: 'p1' }, { _id: 'p1' }, { _id: generated }] });
    expect(deleted.status).toBe(207);
    expect(deleted.body).toEqual([
      { id: 'p1', status: 200 },
      { id: 'p1', status: 404, error: 'The id does not match any pbehavior' },
      { id: generated, status: 200 },
    ]);
  });

  it('puts each listed entity under its own pbehavior from now; unknown entities and bad items fail alone', async () => {
    await engines.start();
    const { t } = engines.h;
    await engines.h.send(check());
    const res = await t.post('/api/v2/bulk/entity-pbehaviors', [
      { entity: 'disk/host', name: 'maintenance from alarm', type: 'Maintenance', reason: 'disk swap', comment: 'swapping sda', duration: { value: 2, unit: 'h' } },
      { entity: 'no/such', name: 'x' },
      { entity: 'disk/host' },
      { entity: 'disk/host', name: 'x', duration: { value: 1, unit: 'y' } },
      { entity: 'disk/host', name: 'x', tstart: t0 },
    ]);
    expect(res.status).toBe(207);
    const results = res.body as { id: string; status: number; error?: string }[];
    expect(results.slice(1)).toEqual([
      { id: '', status: 404, error: 'No entity with id no/such' },
      { id: '', status: 400, error: 'The name is required' },
      { id: '', status: 400, error: 'duration.unit must be one of s, m, h, d, w' },
      { id: '', status: 400, error: 'Unexpected fields: tstart' },
    ]);
    expect(results[0]).toEqual({ id: expect.any(String), status: 200 });
    const [stored] = ((await t.get(`/pbehavior/read?_id=${encodeURIComponent(results[0]!.id)}`)).body as { data: { data: Record<string, unknown>[] }[] }).data[0]!.data;
    expect(stored).toMatchObject({ name: 'maintenance from alarm', author: 'root', tstart: t0, tstop: t0 + 7200, type_: 'Maintenance', reason: 'disk swap', eids: ['disk/host'] });
    expect(stored!.comments).toMatchObject([{ author: 'root', message: 'swapping sda' }]);
    const entered = await engines.h.eventually((alarms) => alarms.some((alarm) => alarm.v.pbehavior_info !== undefined));
    expect(entered[0]!.v.pbehavior_info).toMatchObject({ id: results[0]!.id, name: 'maintenance from alarm' });
  });
});
