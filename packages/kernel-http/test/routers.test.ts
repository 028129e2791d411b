import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Router, { type RouterContext } from '@koa/router';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import {
  collectionRef,
  createLogger,
  defineFeature,
  ErrorCodes,
  hasCode,
  HttpError,
  Kernel,
  kernelRefs,
  serviceRef,
  type FeatureScope,
  type VigieError,
} from '@vigie/kernel';
import { type HttpObservation, type JobObservation, type StoreObservation } from '@vigie/observability';
import { memoryStoreFactory } from '@vigie/documents';
import { koaHttpServer } from '../src/index.js';
import { agendaSchedulerFactory } from '@vigie/scheduler-agenda';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';

const ticksCollection = collectionRef('ticks');

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const greeterRef = serviceRef<{ greet(n: string): string }>('legacy.greeter');

/** A feature bringing an existing Koa router: a greeting, a failure, a declared route next to it. */
function routerFeature() {
  const router = new Router({ prefix: '/api/v2/legacy' });
  router.get('/greetings/:name', (ctx) => {
    const greeter = (ctx.state as { scope: FeatureScope }).scope.resolve(greeterRef);
    const user = (ctx.state as { user?: { name: string } }).user;
    ctx.body = { greeting: greeter.greet(ctx.params.name ?? ''), user: user?.name };
  });
  router.post('/failures', () => {
    throw new HttpError(409, 'already failing');
  });
  router.get('/later', async (ctx) => {
    await new Promise((resolve) => setImmediate(resolve));
    ctx.body = { later: true };
  });
  router.get('/later-failure', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    throw new HttpError(410, 'gone later');
  });
  router.get('/crash', () => {
    throw new Error('secret detail');
  });
  return defineFeature({
    id: 'legacy',
    kernel: '^0.1.0',
    register(f) {
      f.collection(ticksCollection);
      f.service(greeterRef, () => ({ greet: (n: string) => `hello ${n}` }));
      f.route({ method: 'GET', path: '/api/v2/legacy/declared', right: 'sample:read', handler: () => ({ declared: true }) });
      f.router(router, { right: 'legacy:read', docs: { 'GET /api/v2/legacy/greetings/:name': { summary: 'Greets someone' } } });
      f.job({ name: 'legacy.tick', handler: async (run) => void (await run.scope.resolve(kernelRefs.store).collection(ticksCollection).insertOne({ _id: run.id })) });
    },
  });
}

describe('@koa/router routers', () => {
  it('serve their routes behind authentication, in the feature scope', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [routerFeature()] });
    const ok = await t.get('/api/v2/legacy/greetings/ada');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ greeting: 'hello ada', user: 'root' });
    expect(ok.headers.get('x-request-id')).toBeTruthy();
    const anonymous = await t.get('/api/v2/legacy/greetings/ada', { auth: false });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ name: '' });
    expect((await t.get('/api/v2/legacy/declared')).body).toEqual({ declared: true });
  });

  it('render their errors in the JSON envelope, hiding unknown ones behind a 500', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [routerFeature()] });
    const conflict = await t.post('/api/v2/legacy/failures', {});
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ name: '', description: 'already failing' });
    const crash = await t.get('/api/v2/legacy/crash');
    expect(crash.status).toBe(500);
    expect(crash.text).not.toContain('secret detail');
    expect(crash.body).toEqual({ name: '', description: 'Internal server error' });
    // Handlers that answer or fail after an await.
    expect((await t.get('/api/v2/legacy/later')).body).toEqual({ later: true });
    const later = await t.get('/api/v2/legacy/later-failure');
    expect(later.status).toBe(410);
    expect(later.body).toEqual({ name: '', description: 'gone later' });
  });

  it('answer 405 with their methods in Allow, and 404 when nothing matches', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [routerFeature()] });
    const wrongMethod = await t.delete('/api/v2/legacy/failures');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('POST');
    expect((await t.get('/api/v2/legacy/nowhere')).status).toBe(404);
  });

  it('are listed for documentation, with the descriptions their authors attached', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [routerFeature()] });
    expect(t.kernel.routerRoutes()).toEqual([
      { featureId: 'legacy', method: 'GET', path: '/api/v2/legacy/greetings/:name', doc: { summary: 'Greets someone' }, right: 'legacy:read' },
      { featureId: 'legacy', method: 'POST', path: '/api/v2/legacy/failures', right: 'legacy:read' },
      { featureId: 'legacy', method: 'GET', path: '/api/v2/legacy/later', right: 'legacy:read' },
      { featureId: 'legacy', method: 'GET', path: '/api/v2/legacy/later-failure', right: 'legacy:read' },
      { featureId: 'legacy', method: 'GET', path: '/api/v2/legacy/crash', right: 'legacy:read' },
    ]);
  });

  it('are refused at boot when not a router, or hidden by a declared route', () => {
    const router = new Router();
    router.get('/api/v2/shadowed', (ctx) => void (ctx.body = 1));
    const features = [
      defineFeature({ id: 'owner', kernel: '^0.1.0', register: (f) => f.route({ method: 'GET', path: '/api/v2/shadowed', right: 'sample:read', handler: () => 1 }) }),
      defineFeature({ id: 'shadow', kernel: '^0.1.0', register: (f) => f.router(router, { right: 'shadow:read' }) }),
      defineFeature({ id: 'wrong', kernel: '^0.1.0', register: (f) => f.router({} as never) }),
    ];
    let error: unknown;
    try {
      new Kernel({ features, installDir: '/nonexistent-vigie', env: {}, store: memoryStoreFactory(), scheduler: agendaSchedulerFactory(), http: koaHttpServer(), logger: createLogger({ level: 'silent' }) });
    } catch (err) {
      error = err;
    }
    expect(hasCode(error, ErrorCodes.InvalidComposition)).toBe(true);
    expect((error as VigieError).details).toEqual([
      'feature wrong: router() needs a @koa/router Router',
      'router route GET /api/v2/shadowed of feature shadow is hidden by a declared route of feature owner',
    ]);
  });
});

describe('@koa/router dispatch', () => {
  it('gives route middleware the context fields the router itself sets, whether the kernel or the router runs it', async () => {
    // What a route's middleware sees of @koa/router's work: the kernel runs a lone route layer itself (reusing its
    // match), and leaves layers with parameter handlers or router middleware to the router.
    const seen: Record<string, unknown>[] = [];
    const router = new Router({ prefix: '/api/v2/fields' });
    const record = (ctx: RouterContext): void => {
      seen.push({
        params: { ...ctx.params },
        captures: ctx.captures,
        routerPath: ctx.routerPath,
        routerName: ctx.routerName,
        matchedRoute: ctx._matchedRoute,
        matchedRouteName: ctx._matchedRouteName,
        routeMatched: ctx.routeMatched,
        matched: ctx.matched?.map((layer) => String(layer.path)),
        router: ctx.router === router,
      });
      ctx.body = { ok: true };
    };
    router.get('/items/:id', record);
    router.get('named-item', '/named/:id/:part', record);
    router.param('loaded', (value, ctx, next) => {
      ctx.state.loaded = value;
      return next();
    });
    router.get('/loaded/:loaded', record);
    router.use('/guarded', (ctx, next) => next());
    router.get('/guarded/:id', record);
    const paths = ['/api/v2/fields/items/a%20b', '/api/v2/fields/named/x/y', '/api/v2/fields/loaded/z', '/api/v2/fields/guarded/w'];

    const koa = new Koa();
    koa.use(router.routes());
    const server = koa.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      for (const path of paths) expect((await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)).status).toBe(200);
    } finally {
      server.close();
    }
    const byRouter = seen.splice(0);

    const feature = defineFeature({ id: 'fields', kernel: '^0.1.0', register: (f) => f.router(router, { right: 'fields:read' }) });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [feature] });
    for (const path of paths) expect((await t.get(path)).status).toBe(200);
    expect(seen).toEqual(byRouter);
    expect(byRouter[0]).toMatchObject({ params: { id: 'a b' }, matchedRoute: '/api/v2/fields/items/:id', routeMatched: true, router: true });
    expect(byRouter[1]).toMatchObject({ routerName: 'named-item', matchedRouteName: 'named-item' });
  });
});

describe('observations', () => {
  it('report requests by route template and status, store operations and job runs', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [routerFeature()] });
    const http: HttpObservation[] = [];
    const store: StoreObservation[] = [];
    const jobs: JobObservation[] = [];
    t.kernel.observations.on('http', (o) => http.push(o));
    t.kernel.observations.on('store', (o) => store.push(o));
    t.kernel.observations.on('job', (o) => jobs.push(o));
    await t.get('/api/v2/legacy/greetings/ada');
    await t.get('/api/v2/legacy/declared');
    await t.get('/api/v2/legacy/nowhere');
    await t.get('/api/v2/legacy/declared', { auth: false });
    await t.get('/api/v2/legacy/crash');
    expect(http.map(({ method, route, status }) => ({ method, route, status }))).toEqual([
      { method: 'GET', route: '/api/v2/legacy/greetings/:name', status: 200 },
      { method: 'GET', route: '/api/v2/legacy/declared', status: 200 },
      { method: 'GET', route: undefined, status: 404 },
      { method: 'GET', route: '/api/v2/legacy/declared', status: 401 },
      { method: 'GET', route: '/api/v2/legacy/crash', status: 500 },
    ]);
    expect(http.every((o) => o.seconds >= 0)).toBe(true);

    await t.kernel.scheduler.now('legacy.tick', {});
    await expect.poll(() => jobs.length).toBe(1);
    expect(jobs[0]).toMatchObject({ job: 'legacy.tick', ok: true });
    expect(store).toContainEqual(expect.objectContaining({ collection: 'ticks', operation: 'insertOne', ok: true }));
  });
});

describe('@koa/router routes in the access log', () => {
  it('are logged like declared routes: method, path, status, time and user', async () => {
    const lines: Record<string, unknown>[] = [];
    t = await startTestKernel({
      store: memoryStoreFactory(),
      features: [routerFeature()],
      logger: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } }),
      config: { 'webserver.conf': { log: { access: 'true' } } },
    });
    expect((await t.get('/api/v2/legacy/greetings/ada')).status).toBe(200);
    expect((await t.post('/api/v2/legacy/failures', {})).status).toBe(409);
    const access = lines.filter((line) => line.msg === 'request').map(({ method, path, status, user, ms }) => ({ method, path, status, user, timed: typeof ms === 'number' }));
    expect(access).toEqual([
      { method: 'GET', path: '/api/v2/legacy/greetings/ada', status: 200, user: 'root', timed: true },
      { method: 'POST', path: '/api/v2/legacy/failures', status: 409, user: 'root', timed: true },
    ]);
  });
});
