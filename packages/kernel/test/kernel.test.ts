import { gzipSync } from 'node:zlib';
import { describe, expect, it, afterEach } from 'vitest';
import { object, string, number } from 'yup';
import { defineFeature, featureConfig } from '../src/feature.js';
import { memoryStoreFactory } from '@vigie/documents';
import { hasCode, ErrorCodes } from '../src/errors.js';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { compose } from './compose.js';
import { sampleFeature } from './sample-feature/feature.js';
import { extensionPointRef } from '../src/refs.js';


const noop = (id: string, extra: Partial<Parameters<typeof defineFeature>[0]> = {}) => defineFeature({ id, kernel: '^0.1.0', register() {}, ...extra });

describe('composition checks', () => {
  it('reports unknown dependencies, cycles, kernel mismatches and duplicates all at once', () => {
    const err = compose([
      noop('alpha', { dependsOn: ['beta'] }),
      noop('beta', { dependsOn: ['alpha'] }),
      noop('gamma', { dependsOn: ['missing-one'] }),
      noop('old', { kernel: '^9.0.0' }),
      noop('gamma'),
    ]);
    expect(hasCode(err, ErrorCodes.InvalidComposition)).toBe(true);
    expect(err.details).toEqual(
      expect.arrayContaining([
        'dependency cycle: alpha -> beta -> alpha',
        'feature gamma depends on missing-one, which is not composed',
        'feature old needs kernel ^9.0.0, this kernel is 0.1.0',
        'feature gamma is composed twice',
      ]),
    );
    expect(err.message).toContain('alpha -> beta -> alpha');
  });

  it('reports duplicate routes, jobs and health checks with the features involved', () => {
    const withDecls = (id: string) =>
      defineFeature({
        id,
        kernel: '^0.1.0',
        register(f) {
          f.route({ method: 'GET', path: `/api/v2/thing/:${id}`, right: 'sample:read', handler: () => null });
          f.route({ method: 'POST', path: '/api/v2/thing/', right: 'sample:write', handler: () => null });
          f.job({ name: 'shared.job', handler: async () => undefined });
          f.healthCheck({ name: 'shared', check: async () => ({ ok: true, message: '' }) });
        },
      });
    const err = compose([withDecls('one'), withDecls('two')]);
    expect(err.details).toEqual(
      expect.arrayContaining([
        'duplicate route GET /api/v2/thing/:two (features one and two)',
        'duplicate route POST /api/v2/thing/ (features one and two)',
        'duplicate job shared.job (features one and two)',
        'duplicate health check shared (features one and two)',
      ]),
    );
  });

  it('reports every invalid or unknown configuration key, with the section and file', () => {
    const configured = defineFeature({
      id: 'configured',
      kernel: '^0.1.0',
      config: featureConfig(object({ limit: number().integer().min(1).required(), mode: string().oneOf(['a', 'b']) })),
      register() {},
    });
    const err = compose([configured, sampleFeature], {
      'webserver.conf': { configured: { limit: 'lots', mode: 'c', typo: 'x' }, sample: { repeat: '9' }, server: { port: 'eighty' } },
    });
    const text = err.details.join('\n');
    expect(text).toContain('config [configured] (webserver.conf) of feature configured: unknown key typo');
    expect(text).toMatch(/\[configured\].*limit must be a `number`/);
    expect(text).toMatch(/\[configured\].*mode must be one of/);
    expect(text).toMatch(/\[sample\].*repeat must be less than or equal to 3/);
    expect(text).toMatch(/\[server\].*port must be a `number`/);
  });

  it('refuses a feature another copy of the kernel defined (a plugin that did not take @vigie/kernel as a peer)', () => {
    // What another copy's defineFeature returns: the same shape, marked with that copy's token.
    const foreign = Object.freeze({ ...sampleFeature, [Symbol.for('@vigie/kernel: defined by')]: Symbol('another copy') });
    expect(compose([foreign]).details).toEqual([
      "feature sample was defined with another copy of @vigie/kernel (a plugin takes @vigie/kernel as a peer dependency)",
    ]);
  });

  it('refuses contributions to undeclared extension points and two authenticators', () => {
    const auth = (id: string) =>
      defineFeature({
        id,
        kernel: '^0.1.0',
        register(f) {
          f.authenticator(() => ({ authenticate: async () => ({ ok: false, reason: 'missing' }), challenge: () => 'Basic' }));
        },
      });
    const contributor = defineFeature({ id: 'contrib', kernel: '^0.1.0', register: (f) => f.extend(extensionPointRef<number>('nowhere.point'), () => 1) });
    const err = compose([auth('auth-a'), auth('auth-b'), contributor]);
    expect(err.details).toEqual(
      expect.arrayContaining(['several features provide the authenticator: auth-a, auth-b', 'feature contrib contributes to unknown extension point nowhere.point']),
    );
  });
});

describe('initialisation', () => {
  it('reports every feature whose init failed at once, and skips the features that depend on them', async () => {
    const ran: string[] = [];
    const failing = (id: string) =>
      defineFeature({ id, kernel: '^0.1.0', register: (f) => f.onInit(() => Promise.reject(new Error(`${id} cannot reach its server`))) });
    const dependent = defineFeature({ id: 'dependent', kernel: '^0.1.0', dependsOn: ['first'], register: (f) => f.onInit(() => void ran.push('dependent')) });
    const healthy = defineFeature({ id: 'healthy', kernel: '^0.1.0', register: (f) => f.onInit(() => void ran.push('healthy')) });
    const started = startTestKernel({ store: memoryStoreFactory(), features: [failing('first'), dependent, failing('second'), healthy] });
    await expect(started).rejects.toThrow(
      [
        'Vigie could not initialise 3 features:',
        '  - feature first: first cannot reach its server',
        '  - feature dependent: not initialised: it depends on first, which failed',
        '  - feature second: second cannot reach its server',
      ].join('\n'),
    );
    expect(ran).toEqual(['healthy']);
  });
});

describe('the sample feature over HTTP', () => {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it('serves a route through a declared service that uses a tsyringe-built class with validated config', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature], config: { 'webserver.conf': { sample: { greeting: 'bonjour', repeat: 2 } } } });
    const res = await t.get('/api/v2/greet/disk%2Fhost');
    expect(res.status).toBe(200);
    expect((res.body as { text: string }).text).toBe('bonjour disk/host bonjour disk/host');
    const raw = await t.get('/api/v2/greet/a/b');
    expect((raw.body as { text: string }).text).toBe('bonjour a/b bonjour a/b');
  });

  it('runs the job the route queued, with the feature scope', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    await t.get('/api/v2/greet/ada');
    await t.get('/api/v2/greet/ada');
    let count = 0;
    for (let i = 0; i < 100 && count < 2; i++) {
      count = ((await t.get('/api/v2/greet-count/ada')).body as { count: number }).count;
      if (count < 2) await new Promise((r) => setTimeout(r, 50));
    }
    expect(count).toBe(2);
  });

  it('gives each request an id in X-Request-Id, keeping a valid one the client sent', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    const ids: (string | null)[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.get('/api/v2/greet/ada')).headers.get('x-request-id'));
    ids.push((await t.get('/api/v2/nothing-here', { auth: false })).headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(4);
    // Ids the kernel makes are ones it would keep if a proxy passed them on.
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect((await t.get('/api/v2/greet/ada', { headers: { 'x-request-id': 'proxy-42' } })).headers.get('x-request-id')).toBe('proxy-42');
    expect((await t.get('/api/v2/greet/ada', { headers: { 'x-request-id': 'not valid!' } })).headers.get('x-request-id')).not.toBe('not valid!');
  });

  it('runs the contributed health check', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    expect(await t.kernel.health.run('sample')).toEqual({ ok: true, message: '' });
  });

  it('answers 401 JSON with WWW-Authenticate without or with wrong credentials, on known and unknown routes', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    for (const path of ['/api/v2/greet/x', '/api/v2/nothing-here']) {
      const none = await t.get(path, { auth: false });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(none.body).toEqual({ name: '', description: 'Authentication required' });
      const wrong = await t.get(path, { auth: ['root', 'nope'] });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ name: '', description: 'Invalid credentials' });
    }
  });

  it('answers 404 JSON to an authenticated request for an unknown route', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    const res = await t.get('/api/v2/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ name: '', description: 'No route matches GET /api/v2/nothing-here' });
  });

  it('serves public routes without credentials', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    expect((await t.get('/public/ping', { auth: false })).body).toEqual({ pong: true });
  });

  it('words body and validation errors as the feature says, and passes the user to handlers', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    const bad = await t.request('POST', '/api/v2/greet', { body: '{oops', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ name: '', description: 'Malformed greeting' });
    const invalid = await t.post('/api/v2/greet', { name: 42, extra: true });
    expect(invalid.status).toBe(400);
    expect((invalid.body as { description: string }).description).toMatch(/^invalid greeting: /);
    const blank = await t.request('POST', '/api/v2/greet', { body: '   \n', headers: { 'content-type': 'application/json' } });
    expect((blank.body as { description: string }).description).toMatch(/^invalid greeting: /);
    const unsupported = await t.request('POST', '/api/v2/greet', { body: 'name=x', headers: { 'content-type': 'text/csv' } });
    expect(unsupported.status).toBe(415);
    const ok = await t.post('/api/v2/greet', { name: 'ada' });
    expect(ok.body).toEqual({ greeted: 'ada', by: 'root' });
  });

  it('renders HttpErrors with their status and name, and hides unknown errors behind a 500', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    const teapot = await t.get('/api/v2/teapot');
    expect(teapot.status).toBe(418);
    expect(teapot.body).toEqual({ name: 'teapot', description: 'short and stout' });
    const boom = await t.get('/api/v2/boom');
    expect(boom.status).toBe(500);
    expect(boom.body).toEqual({ name: '', description: 'Internal server error' });
    expect(boom.text).not.toContain('secret');
  });

  it('limits request bodies', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature], config: { 'webserver.conf': { server: { body_limit: '1kb' } } } });
    const res = await t.post('/api/v2/greet', { name: 'x'.repeat(5000) });
    expect(res.status).toBe(413);
  });

  it('answers 405 JSON for a known path with another method', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    const res = await t.delete('/api/v2/greet');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ name: '', description: 'Method not allowed' });
  });
});

describe('nesting depth of JSON bodies', () => {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it('refuses bodies nested deeper than [server] json_max_depth as invalid JSON, in the route wording, and stays up', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature], config: { 'webserver.conf': { server: { json_max_depth: 10 } } } });
    const json = { 'content-type': 'application/json' };
    const deep = await t.request('POST', '/api/v2/greet', { body: `{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, headers: json });
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({ name: '', description: 'Malformed greeting' });
    const fits = await t.request('POST', '/api/v2/greet', { body: `{"name":"ada","extra":${'['.repeat(9)}${']'.repeat(9)}}`, headers: json });
    expect(fits.status).not.toBe(500);
    expect((await t.post('/api/v2/greet', { name: 'ada' })).status).toBe(200);
  });
});

describe('unreadable bodies', () => {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it('answers 415 to an unknown content encoding, 413 to a body that inflates beyond the limit, and reads any charset as UTF-8', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    const encoded = await t.request('POST', '/api/v2/greet', { body: '{"name":"ada"}', headers: { 'content-type': 'application/json', 'content-encoding': 'x-evil' } });
    expect(encoded.status).toBe(415);
    expect((encoded.body as { description: string }).description).toMatch(/^unsupported body: /);
    const charset = await t.request('POST', '/api/v2/greet', { body: '{"name":"ada"}', headers: { 'content-type': 'application/json; charset=x-evil' } });
    expect(charset.status).toBe(200);
    const bomb = await t.request('POST', '/api/v2/greet', { body: gzipSync(Buffer.alloc(50 * 1024 * 1024, ' ')), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(bomb.status).toBe(413);
  });
});

describe('path parameters', () => {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it('takes request lines up to [server] max_header_size (64 KiB), and answers 431 beyond', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    expect((await t.get(`/api/v2/greet/${'i'.repeat(40_000)}`)).status).toBe(400);
    expect((await t.get(`/api/v2/greet/${'i'.repeat(100_000)}`)).status).toBe(431);
    expect((await t.get('/api/v2/greet/ada')).status).toBe(200);
  });

  it('answers 400 to an id longer than 255 characters, before any lookup', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    expect((await t.get(`/api/v2/greet/${'i'.repeat(255)}`)).status).toBe(200);
    const long = await t.get(`/api/v2/greet/${'i'.repeat(256)}`);
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ name: '', description: expect.stringMatching(/^the path parameter \w+ must be at most 255 characters$/) });
  });
});
