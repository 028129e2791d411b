// Every row of the spec's two action tables (entities, then links), through the HTTP API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { startImportTest, type ImportTestKernel } from './helpers.js';

let t: ImportTestKernel;

/**
 * db/host impacts host and the watcher app; host impacts the connector nagios/poller:
 *   db/host.impact = [host, app]   host.depends = [db/host]   host.impact = [nagios/poller]
 *   nagios/poller.depends = [host]  app.depends = [db/host]
 */
const seed = {
  cis: [
    {
      _id: 'db/host',
      type: 'resource',
      action: 'create',
      name: 'database',
      measurements: ['queries'],
      infos: { site: { name: 'site', description: 'where', value: 'paris' }, owner: { name: 'owner', description: 'who', value: 'ops' } },
      criticality: 'high',
    },
    { _id: 'host', type: 'component', action: 'create' },
    { _id: 'nagios/poller', type: 'connector', action: 'create' },
    { _id: 'app', type: 'watcher', action: 'create' },
  ],
  links: [
    { _id: 'l1', from: 'db/host', to: 'host', action: 'create' },
    { _id: 'l2', from: ['host'], to: 'nagios/poller', action: 'create' },
    { _id: 'l3', from: 'db/host', to: 'app', action: 'create' },
  ],
};

beforeEach(async () => {
  t = await startImportTest({ clock: new ManualClock() });
  expect((await t.run(seed)).stats).toEqual({ deleted: 0, updated: 4 });
});

afterEach(() => t.stop());

async function entity(id: string): Promise<Record<string, unknown>> {
  const res = await t.get(`/api/v2/entities/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body as Record<string, unknown>;
}

const relations = async (id: string) => {
  const { impact, depends } = await entity(id);
  return { impact, depends };
};

async function done(document: unknown): Promise<Record<string, unknown>> {
  const status = await t.run(document);
  expect(status, JSON.stringify(status)).toMatchObject({ status: 'done', exec_time: '00:00:00' });
  return status.stats as Record<string, unknown>;
}

describe('create', () => {
  it('creates an entity with the defaults, copying every field but action and action_properties', async () => {
    const stats = await done({ cis: [{ _id: 'disk/host', type: 'resource', action: 'create', action_properties: { note: 'x' }, measurements: ['free'], rack: 'r1' }] });
    expect(stats).toEqual({ deleted: 0, updated: 1 });
    expect(await entity('disk/host')).toEqual({
      _id: 'disk/host',
      name: 'disk/host',
      type: 'resource',
      enabled: true,
      impact: [],
      depends: [],
      measurements: ['free'],
      infos: {},
      enable_history: [],
      disable_history: [],
      rack: 'r1',
    });
  });

  it('replaces an existing entity entirely; the entities it was linked with forget it; its history stays', async () => {
    await done({ cis: [{ _id: 'db/host', action: 'disable', action_properties: { disable: 100 } }] });
    const stats = await done({ cis: [{ _id: 'db/host', type: 'resource', action: 'create', name: 'db' }] });
    expect(stats).toEqual({ deleted: 0, updated: 3 });
    expect(await entity('db/host')).toEqual({
      _id: 'db/host',
      name: 'db',
      type: 'resource',
      enabled: true,
      impact: [],
      depends: [],
      measurements: [],
      infos: {},
      enable_history: [],
      disable_history: [100],
    });
    expect((await relations('host')).depends).toEqual([]);
    expect((await relations('app')).depends).toEqual([]);
  });

  it('a create followed by other actions on the entity builds on the new entity; entities only linked keep every field', async () => {
    await done({ cis: [{ _id: 'db/host', action: 'disable', action_properties: { disable: 100 } }] });
    await done({
      cis: [
        { _id: 'db/host', type: 'resource', action: 'create', name: 'db' },
        { _id: 'db/host', action: 'set', type: 'resource', infos: { team: { name: 'team', description: 'who', value: 'dba' } } },
      ],
      links: [{ from: 'db/host', to: 'host', action: 'create' }],
    });
    expect(await entity('db/host')).toMatchObject({
      name: 'db',
      measurements: [],
      infos: { team: { name: 'team', description: 'who', value: 'dba' } },
      impact: ['host'],
      disable_history: [100],
    });
    expect(await entity('db/host')).not.toHaveProperty('criticality');
    expect(await entity('host')).toMatchObject({ type: 'component', depends: ['db/host'], impact: ['nagios/poller'] });
  });

  it('links the entities its impact and depends name, on both ends', async () => {
    await done({ cis: [{ _id: 'web/host', type: 'resource', action: 'create', impact: ['host', 'app'], depends: ['nagios/poller'] }] });
    expect(await relations('web/host')).toEqual({ impact: ['host', 'app'], depends: ['nagios/poller'] });
    expect((await relations('host')).depends).toEqual(['db/host', 'web/host']);
    expect((await relations('app')).depends).toEqual(['db/host', 'web/host']);
    expect((await relations('nagios/poller')).impact).toEqual(['web/host']);
  });

  it('may name an entity that a later element creates; that creation keeps the link', async () => {
    const stats = await done({
      cis: [
        { _id: 'a', type: 'resource', action: 'create', impact: ['c'] },
        { _id: 'c', type: 'component', action: 'create' },
      ],
    });
    expect(stats).toEqual({ deleted: 0, updated: 2 });
    expect(await relations('a')).toEqual({ impact: ['c'], depends: [] });
    expect(await relations('c')).toEqual({ impact: [], depends: ['a'] });
  });
});

describe('set', () => {
  it('creates a missing entity as create does', async () => {
    await done({ cis: [{ _id: 'new', type: 'component', action: 'set' }] });
    expect(await entity('new')).toMatchObject({ _id: 'new', name: 'new', type: 'component', enabled: true, impact: [], depends: [], measurements: [], infos: {} });
  });

  it('changes only the supplied fields, merging infos keys into the stored ones', async () => {
    const stats = await done({
      cis: [{ _id: 'db/host', type: 'resource', action: 'set', name: 'db', infos: { site: { value: 'lyon' }, room: { name: 'room', description: 'which', value: '12' } } }],
    });
    expect(stats).toEqual({ deleted: 0, updated: 1 });
    expect(await entity('db/host')).toEqual({
      _id: 'db/host',
      name: 'db',
      type: 'resource',
      enabled: true,
      impact: ['host', 'app'],
      depends: [],
      measurements: ['queries'],
      infos: {
        site: { name: 'site', description: 'where', value: 'lyon' },
        owner: { name: 'owner', description: 'who', value: 'ops' },
        room: { name: 'room', description: 'which', value: '12' },
      },
      enable_history: [],
      disable_history: [],
      criticality: 'high',
    });
  });
});

describe('set merges nested objects', () => {
  it('merges every nested object, not only infos; lists and scalars are replaced (REFERENCE §7.2)', async () => {
    await done({ cis: [{ _id: 'deep', type: 'component', action: 'create', custom: { x: 1, nested: { a: 1 } }, tags: ['a'] }] });
    await done({ cis: [{ _id: 'deep', type: 'component', action: 'set', custom: { y: 2, nested: { b: 2 } }, tags: ['b'] }] });
    expect(await entity('deep')).toMatchObject({ custom: { x: 1, y: 2, nested: { a: 1, b: 2 } }, tags: ['b'] });
  });
});

describe('update', () => {
  it('copies the supplied fields into the existing entity (infos as a whole)', async () => {
    await done({ cis: [{ _id: 'db/host', action: 'update', infos: { room: { value: '12' } }, criticality: 'low' }] });
    expect(await entity('db/host')).toMatchObject({ name: 'database', measurements: ['queries'], infos: { room: { value: '12' } }, criticality: 'low', impact: ['host', 'app'] });
  });

  it('replaces the relations it supplies, on both ends', async () => {
    const stats = await done({ cis: [{ _id: 'db/host', action: 'update', impact: ['nagios/poller'] }] });
    expect(stats).toEqual({ deleted: 0, updated: 4 });
    expect(await relations('db/host')).toEqual({ impact: ['nagios/poller'], depends: [] });
    expect((await relations('host')).depends).toEqual([]);
    expect((await relations('app')).depends).toEqual([]);
    expect((await relations('nagios/poller')).depends).toEqual(['host', 'db/host']);
  });
});

describe('delete', () => {
  it('deletes the entity and removes it from the impact and depends of the entities it was linked with', async () => {
    const stats = await done({ cis: [{ _id: 'host', action: 'delete' }] });
    expect(stats).toEqual({ deleted: 1, updated: 2 });
    expect((await t.get('/api/v2/entities/host')).status).toBe(404);
    expect(await relations('db/host')).toEqual({ impact: ['app'], depends: [] });
    expect(await relations('nagios/poller')).toEqual({ impact: [], depends: [] });
  });
});

describe('enable and disable', () => {
  it('disable sets enabled to false and records the timestamp; enable sets it back, with one or several timestamps', async () => {
    await done({ cis: [{ _id: 'host', action: 'disable', action_properties: { disable: 1700000000 } }] });
    expect(await entity('host')).toMatchObject({ enabled: false, disable_history: [1700000000], enable_history: [] });
    await done({ cis: [{ _id: 'host', action: 'enable', action_properties: { enable: [1700000100, 1700000200] } }] });
    expect(await entity('host')).toMatchObject({ enabled: true, disable_history: [1700000000], enable_history: [1700000100, 1700000200] });
    await done({ cis: [{ _id: 'host', type: 'component', action: 'disable', action_properties: { disable: null } }] });
    expect(await entity('host')).toMatchObject({ enabled: false, disable_history: [1700000000], impact: ['nagios/poller'] });
  });
});

describe('links', () => {
  it('create adds to the impact of from and the depends of to; from may list several entities', async () => {
    const stats = await done({ links: [{ _id: 'l4', from: ['host', 'app'], to: 'db/host', action: 'create' }] });
    expect(stats).toEqual({ deleted: 0, updated: 3 });
    expect((await relations('db/host')).depends).toEqual(['host', 'app']);
    expect((await relations('host')).impact).toEqual(['nagios/poller', 'db/host']);
    expect((await relations('app')).impact).toEqual(['db/host']);
  });

  it('create may name entities created earlier in the same import', async () => {
    await done({ cis: [{ _id: 'n1', type: 'resource', action: 'create' }], links: [{ from: 'n1', to: 'host', action: 'create' }] });
    expect(await relations('n1')).toEqual({ impact: ['host'], depends: [] });
    expect((await relations('host')).depends).toEqual(['db/host', 'n1']);
  });

  it('delete removes the link on both ends', async () => {
    const stats = await done({ links: [{ _id: 'l1', from: 'db/host', to: 'host', action: 'delete' }] });
    expect(stats).toEqual({ deleted: 0, updated: 2 });
    expect((await relations('db/host')).impact).toEqual(['app']);
    expect((await relations('host')).depends).toEqual([]);
  });
});
