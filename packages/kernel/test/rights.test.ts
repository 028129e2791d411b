import Router from '@koa/router';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStoreFactory } from '@vigie/documents';
import { parseBasicAuthorization, type Authenticator } from '../src/auth.js';
import { defineFeature } from '../src/feature.js';
import { kernelRefs } from '../src/kernel-refs.js';
import { everyRight } from '../src/rights.js';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { compose } from './compose.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** Basic users whose password is ignored and whose name lists their rights (`notes.read+notes.write` for `notes:read` and `notes:write`; `*`). */
const rightsByName: Authenticator = {
  authenticate(ctx) {
    const creds = parseBasicAuthorization(ctx.get('authorization') || undefined);
    if (!creds) return { ok: false, reason: 'missing' };
    return { ok: true, user: { id: creds.user, name: creds.user, via: 'basic', rights: new Set(creds.user.replaceAll('.', ':').split('+')) } };
  },
  challenge: () => 'Basic realm="test"',
};

function notesFeature(handled: string[]) {
  const router = new Router({ prefix: '/api/v2/legacy-notes' });
  router.get('/', (ctx) => void (ctx.body = { legacy: true }));
  router.delete('/:id', (ctx) => void (ctx.body = { deleted: ctx.params.id }));
  return defineFeature({
    id: 'notes',
    kernel: '^0.1.0',
    register(f) {
      f.authenticator(() => rightsByName);
      f.route({ method: 'GET', path: '/api/v2/notes', right: 'notes:read', handler: () => ['a note'] });
      f.route({
        method: 'POST',
        path: '/api/v2/notes',
        right: 'notes:write',
        // Never reached without the right: the refusal comes before the body is read and the handler runs.
        handler: () => {
          handled.push('post');
          return { created: true };
        },
      });
      f.router(router, { right: 'notes:read', docs: { 'DELETE /api/v2/legacy-notes/:id': { right: 'notes:write' } } });
    },
  });
}

describe('rights', () => {
  it('refuses at boot every route, public route and router route whose right is missing or malformed, all at once', () => {
    const router = new Router();
    router.get('/api/v2/bare-router', () => undefined);
    const err = compose([
      defineFeature({
        id: 'careless',
        kernel: '^0.1.0',
        register(f) {
          f.route({ method: 'GET', path: '/api/v2/forgotten', handler: () => null });
          f.route({ method: 'PUT', path: ['/api/v2/badly', '/api/v2/badly-too'], right: 'Badly Named', handler: () => null });
          f.route({ method: 'GET', path: '/api/v2/open', public: true, right: 'open:read', handler: () => null });
          f.route({ method: 'GET', path: '/api/v2/open-fine', public: true, handler: () => null });
          f.router(router);
        },
      }),
    ]);
    expect(err.details).toEqual([
      'feature careless: route GET /api/v2/forgotten declares no right (set `right: "<resource>:<action>"`, or `public: true`)',
      'feature careless: route PUT /api/v2/badly, /api/v2/badly-too declares the right "Badly Named", which is not <resource>:<action> in lowercase kebab-case',
      'feature careless: route GET /api/v2/open is public, so it cannot require a right',
      'feature careless: router route GET /api/v2/bare-router declares no right (set `right: "<resource>:<action>"`, or `public: true`)',
    ]);
  });

  it('answers 403 with the envelope, before the handler, to a user without the route right', async () => {
    const handled: string[] = [];
    t = await startTestKernel({ store: memoryStoreFactory(), features: [notesFeature(handled)] });
    const reader = { auth: ['notes.read', 'x'] as [string, string] };
    expect((await t.get('/api/v2/notes', reader)).body).toEqual(['a note']);
    const refused = await t.post('/api/v2/notes', { text: 'hi' }, reader);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ name: '', description: 'the right notes:write is required' });
    expect(handled).toEqual([]);
    const writer = await t.post('/api/v2/notes', { text: 'hi' }, { auth: ['notes.read+notes.write', 'x'] });
    expect(writer.status).toBe(200);
    expect((await t.post('/api/v2/notes', {}, { auth: [everyRight, 'x'] })).status).toBe(200);
    expect(handled).toEqual(['post', 'post']);
    // Authentication still comes first: no credentials is a 401, not a 403.
    expect((await t.post('/api/v2/notes', {}, { auth: false })).status).toBe(401);
  });

  it('checks the rights of router routes: the router right, or the one its docs entry names', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [notesFeature([])] });
    const reader = { auth: ['notes.read', 'x'] as [string, string] };
    expect((await t.get('/api/v2/legacy-notes', reader)).body).toEqual({ legacy: true });
    expect((await t.get('/api/v2/legacy-notes', { auth: ['other.read', 'x'] })).status).toBe(403);
    const refused = await t.delete('/api/v2/legacy-notes/n1', reader);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ name: '', description: 'the right notes:write is required' });
    expect((await t.delete('/api/v2/legacy-notes/n1', { auth: ['notes.write', 'x'] })).body).toEqual({ deleted: 'n1' });
  });

  it('lists every declared right in the route catalog', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [notesFeature([])] });
    expect(t.kernel.scope('notes').resolve(kernelRefs.routeCatalog).rights()).toEqual(['notes:read', 'notes:write']);
  });
});
