import { afterEach, describe, expect, it } from 'vitest';
import { collectionRef, defineFeature, defineRoute, HttpError, kernelRefs, type Doc } from '@vigie/kernel';
import { auditChangeLimit } from '@vigie/kernel-http';
import { ManualClock } from '@vigie/kernel-testing';
import { eventually, expectError, startFeatureTest, testAdmin, type TestKernel } from '@vigie/testkit';
import { auditFeature, type AuditRecord } from '../src/index.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

type Page = { data: AuditRecord[]; meta: { total_count: number; page_count: number } };
const audit = async (query = ''): Promise<Page> => (await (t as TestKernel).get(`/api/v2/audit${query}`)).body as Page;

describe('the audit log', () => {
  it('records every change through the API: who, what, when, from where, the body with secrets masked, the outcome', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    t = await startFeatureTest({ features: [auditFeature], clock });
    expect((await t.post('/api/v2/users', { name: 'ada', password: 'ada password', roles: ['viewer'] })).status).toBe(200);
    clock.advance(1000);
    expect((await t.post('/api/v2/users', { name: 'ada', password: 'ada password', roles: ['viewer'] })).status).toBe(409);
    clock.advance(1000);
    expect((await t.put('/api/v2/users/ada', { enabled: false })).status).toBe(200);
    // Reads are not changes; refused input never reached a handler.
    await t.get('/api/v2/users');
    expect((await t.post('/api/v2/users', { name: 'bob' })).status).toBe(400);

    const page = await audit();
    expect(page.meta.total_count).toBe(3);
    const [disabled, duplicate, created] = page.data;
    expect(created).toMatchObject({
      at: Date.UTC(2026, 5, 1, 12),
      user: { id: testAdmin.user, name: testAdmin.user, via: 'basic' },
      method: 'POST',
      route: '/api/v2/users',
      path: '/api/v2/users',
      right: 'users:admin',
      clientAddress: expect.stringMatching(/127\.0\.0\.1$/),
      body: { name: 'ada', password: '********', roles: ['viewer'] },
      outcome: 'done',
      status: 200,
    });
    expect(JSON.stringify(page)).not.toContain('ada password');
    expect(duplicate).toMatchObject({ outcome: 'failed', status: 409 });
    expect(disabled).toMatchObject({ method: 'PUT', route: '/api/v2/users/:name', params: { name: 'ada' }, body: { enabled: false }, outcome: 'done' });

    // Filters and paging.
    expect((await audit('?method=PUT')).data.map((r) => r.path)).toEqual(['/api/v2/users/ada']);
    expect((await audit('?outcome=failed')).meta.total_count).toBe(1);
    expect((await audit('?resource=ada')).meta.total_count).toBe(1);
    expect((await audit(`?route=/api/v2/users&user=${testAdmin.user}&limit=2&page=2`)).data).toEqual([created]);
    expect((await audit(`?from=${Date.UTC(2026, 5, 1, 12) / 1000 + 1}`)).meta.total_count).toBe(2);
    expect((await audit('?user=nobody')).meta.total_count).toBe(0);
  });

  it('names the API key a change came through, and needs audit:read', async () => {
    t = await startFeatureTest({ features: [auditFeature] });
    expect((await t.post('/api/v2/users', { name: 'ada', password: 'ada password', roles: ['operator'] })).status).toBe(200);
    const key = (await t.post('/api/v2/api-keys', { label: 'ci' }, { auth: ['ada', 'ada password'] })).body as { key: string; prefix: string };
    expect((await t.delete('/api/v2/api-keys/unknown', { auth: false, headers: { 'x-canopsis-authkey': key.key } })).status).toBe(404);
    const [byKey, created] = (await audit('?user=ada')).data;
    expect(byKey).toMatchObject({ user: { name: 'ada', via: 'authkey', apiKey: key.prefix }, method: 'DELETE', outcome: 'failed' });
    // The key's secret is never recorded, even in the creation's answer.
    expect(created).toMatchObject({ route: '/api/v2/api-keys', body: { label: 'ci' } });
    expect(JSON.stringify(await audit())).not.toContain(key.key);
    await expectError(t.get('/api/v2/audit', { auth: ['ada', 'ada password'] }), 403, 'the right audit:read is required');
  });

  it('records the address a trusted proxy forwards, and only a trusted one', async () => {
    const forwarded = { headers: { 'x-forwarded-for': '203.0.113.7' } };
    t = await startFeatureTest({ features: [auditFeature] });
    await t.post('/api/v2/roles', { name: 'one', rights: [] }, forwarded);
    expect((await audit()).data[0]?.clientAddress).toMatch(/127\.0\.0\.1$/);
    await t.stop();
    t = await startFeatureTest({ features: [auditFeature], config: { 'webserver.conf': { server: { trusted_proxies: 'loopback' } } } });
    await t.post('/api/v2/roles', { name: 'two', rights: [] }, forwarded);
    expect((await audit()).data[0]?.clientAddress).toBe('203.0.113.7');
  });

  it('records the documents a change wrote, before and after, with secrets masked', async () => {
    t = await startFeatureTest({ features: [auditFeature] });
    expect((await t.post('/api/v2/users', { name: 'ada', password: 'ada password', roles: ['viewer'] })).status).toBe(200);
    expect((await t.put('/api/v2/users/ada', { enabled: false })).status).toBe(200);
    expect((await t.delete('/api/v2/users/ada')).status).toBe(204);
    const [deleted, disabled, created] = (await audit()).data;
    expect(created?.changes).toEqual([
      { collection: 'users', id: 'ada', before: null, after: expect.objectContaining({ _id: 'ada', roles: ['viewer'], enabled: true, password: '********' }) },
    ]);
    expect(created?.changesOmitted).toBe(0);
    expect(disabled?.changes).toEqual([
      {
        collection: 'users',
        id: 'ada',
        before: expect.objectContaining({ enabled: true, password: '********' }),
        after: expect.objectContaining({ enabled: false, password: '********' }),
      },
    ]);
    expect(deleted?.changes).toContainEqual({ collection: 'users', id: 'ada', before: expect.objectContaining({ _id: 'ada', enabled: false }), after: null });
    expect(JSON.stringify(await audit())).not.toMatch(/scrypt|ada password/);
  });

  it('copies at most the first documents of a large write and counts the rest, whatever the feature', async () => {
    const items = collectionRef<Doc & { n: number }>('bulk_items');
    const written = auditChangeLimit + 50;
    // A plugin-like feature writing through the plain store API: nothing in it knows about the audit log.
    const bulkFeature = defineFeature({
      id: 'bulk',
      kernel: '^0.1.0',
      register(f) {
        f.collection(items);
        f.route(
          defineRoute({
            method: 'POST',
            path: '/api/v2/bulk-items',
            right: 'bulk:write',
            summary: 'Writes many documents',
            tags: ['bulk'],
            body: false,
            responses: { 200: { description: 'Done' } },
            handler: async (ctx) => {
              const store = ctx.state.scope.resolve(kernelRefs.store);
              const collection = store.collection(items);
              await collection.insertMany(Array.from({ length: written }, (_, n) => ({ _id: `item-${n}`, n })));
              await collection.updateMany({}, { $inc: { n: 1 } });
              return { written };
            },
          }),
        );
        f.route(
          defineRoute({
            method: 'DELETE',
            path: '/api/v2/bulk-items',
            right: 'bulk:write',
            summary: 'Deletes some documents in one batch',
            tags: ['bulk'],
            body: false,
            responses: { 200: { description: 'Done' } },
            handler: async (ctx) => {
              const store = ctx.state.scope.resolve(kernelRefs.store);
              await store.batch([
                { op: 'delete', collection: items.name, filter: { n: { $lte: 2 } }, multi: true },
                { op: 'update', collection: items.name, filter: { _id: 'item-2' }, update: { $set: { n: 0 } } },
              ]);
              return { done: true };
            },
          }),
        );
        f.route(
          defineRoute({
            method: 'PUT',
            path: '/api/v2/bulk-items',
            right: 'bulk:write',
            summary: 'Writes documents that are their own record',
            tags: ['bulk'],
            body: false,
            auditChanges: false,
            responses: { 200: { description: 'Done' } },
            handler: async (ctx) => {
              await ctx.state.scope.resolve(kernelRefs.store).collection(items).insertMany([{ _id: 'own-1', n: 0 }, { _id: 'own-2', n: 0 }]);
              ctx.state.countWrites(2);
              return { done: true };
            },
          }),
        );
      },
    });
    t = await startFeatureTest({ features: [auditFeature, bulkFeature] });
    expect((await t.post('/api/v2/bulk-items', undefined)).status).toBe(200);
    const [bulk] = (await audit()).data;
    expect(bulk?.changes).toHaveLength(auditChangeLimit);
    expect(bulk?.changes[0]).toEqual({ collection: 'bulk_items', id: 'item-0', before: null, after: { _id: 'item-0', n: 0 } });
    // The other 50 inserts and all 150 updates are counted, not copied.
    expect(bulk?.changesOmitted).toBe(written * 2 - auditChangeLimit);

    expect((await t.delete('/api/v2/bulk-items')).status).toBe(200);
    const [batch] = (await audit()).data;
    expect(batch?.changes).toEqual([
      { collection: 'bulk_items', id: 'item-0', before: { _id: 'item-0', n: 1 }, after: null },
      { collection: 'bulk_items', id: 'item-1', before: { _id: 'item-1', n: 2 }, after: null },
      { collection: 'bulk_items', id: 'item-2', before: { _id: 'item-2', n: 3 }, after: { _id: 'item-2', n: 0 } },
    ]);
    expect(batch?.changesOmitted).toBe(0);

    // A route that says its writes are their own record has them counted, not copied.
    expect((await t.put('/api/v2/bulk-items', undefined)).status).toBe(200);
    const [own] = (await audit()).data;
    expect(own).toMatchObject({ method: 'PUT', outcome: 'done', changes: [], changesOmitted: 2 });
  });

  it('counts the requests of a tallied route in one record per minute, user and client, each before its handler runs', async () => {
    const items = collectionRef<Doc>('tallied_items');
    let gate: Promise<void> = Promise.resolve();
    const tallyFeature = defineFeature({
      id: 'tallied',
      kernel: '^0.1.0',
      register(f) {
        f.collection(items);
        f.route(
          defineRoute({
            method: 'POST',
            path: '/api/v2/tallied/:id',
            right: 'tallied:write',
            summary: 'Writes one document, many times a second',
            tags: ['tallied'],
            body: false,
            audit: 'tally',
            responses: { 200: { description: 'Done' }, 409: { description: 'Refused' } },
            handler: async (ctx) => {
              await gate;
              if (ctx.params.id === 'refused') throw new HttpError(409, 'refused');
              await ctx.state.scope.resolve(kernelRefs.store).collection(items).insertOne({ _id: ctx.params.id as string });
              ctx.state.countWrites(1);
              return { done: true };
            },
          }),
        );
      },
    });
    const start = Date.UTC(2026, 5, 1, 12, 0, 10);
    const clock = new ManualClock(start);
    t = await startFeatureTest({ features: [auditFeature, tallyFeature], clock });
    const first = await t.post('/api/v2/tallied/a', undefined);
    expect(first.status).toBe(200);
    clock.advance(20_000);
    expect((await t.post('/api/v2/tallied/b', undefined)).status).toBe(200);
    expect((await t.post('/api/v2/tallied/refused', undefined)).status).toBe(409);
    const [minute] = (await audit()).data;
    expect((await audit()).meta.total_count).toBe(1);
    expect(minute).toMatchObject({
      at: start,
      requestId: first.headers.get('x-request-id'),
      user: { name: testAdmin.user },
      method: 'POST',
      route: '/api/v2/tallied/:id',
      body: null,
      requests: 3,
      pending: 0,
      failed: 1,
      outcome: 'failed',
      status: 409,
      ended: start + 20_000,
      changes: [],
      changesOmitted: 2,
    });

    // The next minute has a record of its own; a request is counted (durably) before its handler runs.
    clock.advance(60_000);
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    const held = t.post('/api/v2/tallied/c', undefined);
    const pending = await eventually(() => audit('?outcome=pending'), (page) => page.meta.total_count === 1, 'the held request counted as pending');
    expect(pending.data[0]).toMatchObject({ at: start + 80_000, requests: 1, pending: 1, failed: 0, outcome: 'done', status: null });
    release();
    expect((await held).status).toBe(200);
    const [next, previous] = (await audit()).data;
    expect(next).toMatchObject({ requests: 1, pending: 0, outcome: 'done', status: 200, changesOmitted: 1 });
    expect(previous).toEqual(minute);

    // A sender with wrong credentials keeps sending: its refusals are counted by the minute too, on their own.
    for (let i = 0; i < 3; i++) expect((await t.post('/api/v2/tallied/d', undefined, { auth: ['sender', 'wrong password'] })).status).toBe(401);
    const refused = await audit('?outcome=refused');
    expect(refused.meta.total_count).toBe(1);
    expect(refused.data[0]).toMatchObject({ user: { id: '', name: 'sender' }, route: '/api/v2/tallied/:id', requests: 3, failed: 3, pending: 0, status: 401, outcome: 'refused' });
    expect(JSON.stringify(refused)).not.toContain('wrong password');
  });

  it('records writes refused before their handler (bad credentials, missing right, throttled) with who tried; not reads, not anonymous requests', async () => {
    t = await startFeatureTest({ features: [auditFeature] });
    expect((await t.post('/api/v2/users', { name: 'vic', password: 'vic password', roles: ['viewer'] })).status).toBe(200);
    await expectError(t.post('/api/v2/roles', { name: 'mine', rights: [] }, { auth: ['vic', 'vic password'] }), 403, 'the right roles:admin is required');
    expect((await t.delete('/api/v2/users/root', { auth: ['vic', 'not the password'] })).status).toBe(401);
    expect((await t.delete('/api/v2/users/root', { auth: false })).status).toBe(401);
    expect((await t.get('/api/v2/users', { auth: ['vic', 'vic password'] })).status).toBe(403);

    const refused = await audit('?outcome=refused');
    expect(refused.meta.total_count).toBe(2);
    const [badPassword, forbidden] = refused.data;
    expect(forbidden).toMatchObject({
      user: { id: 'vic', name: 'vic', via: 'basic' },
      method: 'POST',
      route: '/api/v2/roles',
      right: 'roles:admin',
      body: null,
      outcome: 'refused',
      status: 403,
      reason: 'the right roles:admin is required',
      changes: [],
    });
    expect(badPassword).toMatchObject({
      user: { id: '', name: 'vic', via: '' },
      method: 'DELETE',
      route: '/api/v2/users/:name',
      params: { name: 'root' },
      outcome: 'refused',
      status: 401,
    });
    expect(JSON.stringify(refused)).not.toContain('not the password');
  });
});
