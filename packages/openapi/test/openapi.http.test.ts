import Router from '@koa/router';
import { afterEach, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { array, number, object, string } from 'yup';
import { defineFeature } from '@vigie/kernel';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { openApiFeature, openApiPath } from '../src/index.js';

const widget = object({ _id: string().required(), size: number().integer().min(0), tags: array(string().required()).nullable() });

const widgetsFeature = defineFeature({
  id: 'widgets',
  kernel: '^0.1.0',
  register(f) {
    f.route({
      method: 'POST',
      path: '/api/v2/widgets',
      right: 'widgets:write',
      summary: 'Create a widget',
      tags: ['widgets'],
      requestSchema: widget,
      responses: { 200: { description: 'Its id', schema: object({ _id: string().required() }) } },
      handler: () => ({ _id: 'w' }),
    });
    f.route({
      method: 'GET',
      path: ['/api/v2/widgets/*id', '/api/v2/widget/:id/'],
      right: 'widgets:read',
      description: 'Reads one widget.',
      summary: 'One widget',
      querySchema: object({ verbose: number().integer() }),
      responses: { 200: { description: 'The widget', schema: widget }, 404: { description: 'No such widget' } },
      handler: () => ({}),
    });
    f.route({ method: 'GET', path: '/public/widgets/count', public: true, handler: () => ({ n: 0 }) });
    // A body the handler reads itself is documented by requestDoc.
    f.route({ method: 'PUT', path: '/api/v2/widgets-upload', right: 'widgets:write', body: false, requestDoc: array(widget), handler: () => ({}) });
    const legacy = new Router({ prefix: '/api/v2/legacy-widgets' });
    legacy.get('/:id', (ctx) => void (ctx.body = { id: ctx.params.id }));
    legacy.post('/', (ctx) => void (ctx.body = {}));
    f.router(legacy, { right: 'widgets:read', docs: { 'POST /api/v2/legacy-widgets/': { right: 'widgets:write', summary: 'Create a legacy widget', description: 'From the old Koa app' } } });
  },
});

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('GET /api/v2/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document describing every composed route', async () => {
    t = await startFeatureTest({ features: [openApiFeature, widgetsFeature] });
    const res = await t.get('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> };
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v2/widgets', '/api/v2/widgets/{id}', '/api/v2/widget/{id}', '/public/widgets/count', '/api/v2/openapi.json', '/api/v2/account/me']),
    );
    const create = doc.paths['/api/v2/widgets']?.post as { requestBody: { content: Record<string, { schema: { properties: object; required: string[] } }> } };
    expect(create.requestBody.content['application/json']?.schema.required).toEqual(['_id']);
    const upload = doc.paths['/api/v2/widgets-upload']?.put as { requestBody: { content: Record<string, { schema: { type: string } }> } };
    expect(Object.values(upload.requestBody.content).map((media) => media.schema.type)).toEqual(['array']);
    const one = doc.paths['/api/v2/widgets/{id}']?.get as { parameters: { name: string; in: string }[]; responses: Record<string, unknown> };
    expect(one.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' }), expect.objectContaining({ name: 'verbose', in: 'query' })]));
    expect(Object.keys(one.responses)).toEqual(expect.arrayContaining(['200', '404', '401', '403']));
    // Each operation names the right it needs, as an extension and as the last line of its description.
    expect(one).toMatchObject({ 'x-vigie-right': 'widgets:read', description: 'Reads one widget.\n\nRequires the right `widgets:read`.' });
    expect(doc.paths['/api/v2/widgets-upload']?.put).toMatchObject({ 'x-vigie-right': 'widgets:write', description: 'Requires the right `widgets:write`.' });
    expect(doc.paths['/public/widgets/count']?.get?.security).toEqual([]);
    expect(doc.paths['/public/widgets/count']?.get).not.toHaveProperty('x-vigie-right');
    // Router routes: undocumented unless their author described them.
    expect(doc.paths['/api/v2/legacy-widgets/{id}']?.get).toMatchObject({ summary: 'GET /api/v2/legacy-widgets/{id} (undocumented)', 'x-vigie-undocumented': true, tags: ['widgets'] });
    expect(doc.paths['/api/v2/legacy-widgets']?.post).toMatchObject({
      summary: 'Create a legacy widget',
      description: 'From the old Koa app\n\nRequires the right `widgets:write`.',
      'x-vigie-right': 'widgets:write',
    });
    expect(doc.paths['/api/v2/legacy-widgets/{id}']?.get).toMatchObject({ 'x-vigie-right': 'widgets:read' });
    expect(doc.paths['/api/v2/legacy-widgets']?.post).not.toHaveProperty('x-vigie-undocumented');
    // The validator does reject a broken document (so the check above can fail).
    expect((await new Validator().validate({ ...doc, paths: { 'no-leading-slash': {} } } as never)).valid).toBe(false);
  });

  it('needs credentials like every other route', async () => {
    t = await startFeatureTest({ features: [openApiFeature] });
    expect((await t.get('/api/v2/openapi.json', { auth: false })).status).toBe(401);
  });
});

describe('GET /api/v2/docs', () => {
  it('serves the reference page and its local assets to authenticated users only', async () => {
    t = await startFeatureTest({ features: [openApiFeature] });
    const page = await t.get('/api/v2/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('/api/v2/docs/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\//);
    const bundle = await t.get('/api/v2/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect(bundle.text).toContain('SwaggerUIBundle');
    expect((await t.get('/api/v2/docs/init.js')).text).toContain('/api/v2/openapi.json');
    expect((await t.get('/api/v2/docs', { auth: false })).status).toBe(401);
    expect((await t.get('/api/v2/docs/swagger-ui.css', { auth: false })).status).toBe(401);
    const other = await t.get('/api/v2/docs/package.json');
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ description: 'No asset package.json in the API reference' });
    expect((await t.get('/api/v2/docs/..%2Fpackage.json')).status).toBe(404);
  });
});

describe('openApiPath', () => {
  it('turns router parameters into OpenAPI templates', () => {
    expect(openApiPath('/api/v2/pbehavior_byeid/*entityId')).toEqual({ path: '/api/v2/pbehavior_byeid/{entityId}', parameters: [{ name: 'entityId', rest: true }] });
    expect(openApiPath('/api/v2/heartbeat/')).toEqual({ path: '/api/v2/heartbeat', parameters: [] });
  });
});
