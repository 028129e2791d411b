import { afterEach, describe, expect, it } from 'vitest';
import { memoryStoreFactory } from '@vigie/documents';
import { ManualClock, startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { contextGraphFeature, entitiesChangedEvent } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { helloFeature } from '../src/index.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const start = (hello: Record<string, string> = {}, clock = new ManualClock(1_700_000_000_000)) =>
  startTestKernel({ store: memoryStoreFactory(), features: [eventsFeature, contextGraphFeature, helloFeature], clock, config: { 'webserver.conf': { hello } } });

describe('the hello plugin', () => {
  it('greets the authenticated user with the configured greeting, and refuses anonymous callers', async () => {
    t = await start({ greeting: 'Bonjour' });
    const res = await t.get('/api/v2/hello');
    expect(res.status).toBe(200);
    // The recurring summary job also runs once at start, so last_summary may already be set.
    expect(res.body).toMatchObject({ greeting: 'Bonjour, root!', visits: 0, changed_entities: 0 });
    expect((await t.get('/api/v2/hello', { auth: false })).status).toBe(401);
  });

  it('records visits with validated bodies', async () => {
    t = await start();
    const visit = await t.post('/api/v2/hello/visits', { name: 'ada' });
    expect(visit.status).toBe(200);
    expect(visit.body).toMatchObject({ name: 'ada', at: 1_700_000_000 });
    const invalid = await t.post('/api/v2/hello/visits', { name: 'ada', admin: true });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ name: '', description: expect.stringMatching(/^invalid visit: /) });
    expect((await t.get('/api/v2/hello')).body).toMatchObject({ visits: 1 });
  });

  it('serves its @koa/router routes behind authentication, documented or not', async () => {
    t = await start({ greeting: 'Hi' });
    expect((await t.get('/api/v2/hello/legacy/greetings/grace')).body).toEqual({ message: 'Hi, grace!' });
    expect((await t.get('/api/v2/hello/legacy/ping')).body).toEqual({ pong: true });
    expect((await t.get('/api/v2/hello/legacy/ping', { auth: false })).status).toBe(401);
    expect(t.kernel.routerRoutes()).toEqual([
      { featureId: 'hello', method: 'GET', path: '/api/v2/hello/legacy/greetings/:name', doc: { summary: 'Greets someone by name', tags: ['hello'] }, right: 'hello:read' },
      { featureId: 'hello', method: 'GET', path: '/api/v2/hello/legacy/ping', right: 'hello:read' },
    ]);
  });

  it('counts the entities the event bus reports changed, and its job summarises and trims', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    t = await start({ max_visits: '2' }, clock);
    await t.kernel.eventBus.emit(entitiesChangedEvent, { ids: ['a/b', 'c/d'] });
    for (const name of ['one', 'two', 'three']) await t.post('/api/v2/hello/visits', { name });
    clock.advance(60_000);
    await t.kernel.scheduler.now('hello.summary', {});
    await expect.poll(async () => ((await t?.get('/api/v2/hello'))?.body as { last_summary: number | null }).last_summary, { timeout: 5000 }).toBe(1_700_000_060);
    expect((await t.get('/api/v2/hello')).body).toMatchObject({ visits: 2, changed_entities: 2 });
  });

  it('counts, in its pipeline stage, the events each connector sends', async () => {
    t = await start();
    const check = (connector: string) => ({ event_type: 'check', source_type: 'component', connector, connector_name: 'c1', component: 'host', state: 0 });
    expect((await t.post('/api/v2/event', [check('nagios'), check('nagios'), check('zabbix')])).status).toBe(200);
    await expect.poll(async () => ((await t?.get('/api/v2/hello'))?.body as { events_by_connector: unknown }).events_by_connector, { timeout: 5000 }).toEqual({ nagios: 2, zabbix: 1 });
  });

  it('reports its health', async () => {
    t = await start();
    expect(await t.kernel.health.run('hello')).toEqual({ ok: true, message: '0 visits' });
  });

  it('refuses invalid configuration at start', async () => {
    await expect(start({ summary_every: 'often' })).rejects.toThrow('summary_every must be a duration such as 30s, 5m or 1h');
    await expect(start({ colour: 'blue' })).rejects.toThrow('unknown key colour');
  });
});
