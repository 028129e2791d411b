import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { object, string } from 'yup';
import {
  createLogger,
  defineFeature,
  defineRoute,
  ErrorCodes,
  HttpError,
  Kernel,
  type RouteDefinition,
} from '@vigie/kernel';
import { memoryStoreFactory } from '@vigie/documents';
import { koaHttpServer } from '../src/index.js';
import { agendaSchedulerFactory } from '@vigie/scheduler-agenda';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { sampleFeature, type GreetingInput } from '../../kernel/test/sample-feature/feature.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('route input validated from the schemas', () => {
  it('types input.body and input.query from requestSchema and querySchema, undefined without them', () => {
    const route = defineRoute({
      method: 'POST',
      right: 'sample:write',
      path: '/x',
      requestSchema: object({ name: string().required() }).required(),
      handler: (_ctx, input) => {
        expectTypeOf(input.body).toEqualTypeOf<{ name: string }>();
        expectTypeOf(input.query).toEqualTypeOf<undefined>();
        return null;
      },
    });
    expectTypeOf(route).toExtend<RouteDefinition>();
    expectTypeOf<GreetingInput>().toEqualTypeOf<{ name: string }>();
  });

  it('hands the handler the validated body, and words a refused one as the feature says', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    expect((await t.post('/api/v2/greet', { name: 'ada' })).body).toEqual({ greeted: 'ada', by: 'root' });
    const wrongType = await t.post('/api/v2/greet', { name: 42 });
    expect(wrongType.status).toBe(400);
    // Strict: 42 is not cast to "42".
    expect(wrongType.body).toEqual({ name: '', description: 'invalid greeting: name must be a `string` type, but the final value was: `42`.' });
    const unknownKey = await t.post('/api/v2/greet', { name: 'ada', extra: true });
    expect(unknownKey.body).toEqual({ name: '', description: 'invalid greeting: this field has unspecified keys: extra' });
    const absent = await t.request('POST', '/api/v2/greet');
    expect(absent.body).toEqual({ name: '', description: 'invalid greeting: this is a required field' });
  });

  it('casts the query, fills its defaults, and refuses a parameter given twice when the route asks', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature] });
    expect((await t.get('/api/v2/greetings')).body).toEqual({ limit: 10 });
    expect((await t.get('/api/v2/greetings?limit=3&loud=true')).body).toEqual({ limit: 3, loud: true });
    const invalid = await t.get('/api/v2/greetings?limit=0');
    expect(invalid.body).toEqual({ name: '', description: 'invalid greeting: limit must be greater than or equal to 1' });
    const twice = await t.get('/api/v2/greetings?limit=1&limit=2');
    expect(twice.body).toEqual({ name: '', description: 'invalid greeting: limit is given more than once' });
  });

  it('runs preValidation, then prepareBody, before the input is validated, and applies the input bounds to every body', async () => {
    const checked = defineFeature({
      id: 'checked',
      kernel: '^0.1.0',
      register(f) {
        f.errors({ [ErrorCodes.Validation]: (e) => ({ status: 400, description: `invalid thing: ${e.detail}` }) });
        f.route(
          defineRoute({
            method: 'PUT',
            right: 'sample:write',
            path: '/api/v2/thing/:id',
            requestSchema: object({ name: string().required() }).required(),
            preValidation: (ctx) => {
              if (ctx.params.id !== 'known') throw new HttpError(404, `no thing ${ctx.params.id}`);
            },
            // An older client's spelling, turned into the schema's before it checks the body.
            prepareBody: (body) => {
              if (typeof body !== 'object' || body === null || !('title' in body)) return body;
              const { title, ...rest } = body as Record<string, unknown>;
              return { ...rest, name: title };
            },
            handler: (ctx, { body }) => ({ id: ctx.params.id, name: body.name }),
          }),
        );
      },
    });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [checked] });
    expect((await t.put('/api/v2/thing/other', {})).body).toEqual({ name: '', description: 'no thing other' });
    expect((await t.put('/api/v2/thing/known', {})).body).toEqual({ name: '', description: 'invalid thing: name is a required field' });
    expect((await t.put('/api/v2/thing/known', { name: 'x'.repeat(70_000) })).body).toEqual({ name: '', description: 'invalid thing: name must be at most 65536 characters' });
    expect((await t.put('/api/v2/thing/known', { name: 'n' })).body).toEqual({ id: 'known', name: 'n' });
    expect((await t.put('/api/v2/thing/known', { title: 'old' })).body).toEqual({ id: 'known', name: 'old' });
  });
});

describe('routes without schemas', () => {
  it('get one shared, frozen input: nothing is validated or built per request', async () => {
    const inputs: unknown[] = [];
    const plain = defineFeature({
      id: 'plain',
      kernel: '^0.1.0',
      register(f) {
        f.route({
          method: 'POST',
          right: 'sample:write',
          path: '/api/v2/plain',
          handler: (_ctx, input) => {
            inputs.push(input);
            return null;
          },
        });
      },
    });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [plain] });
    await t.post('/api/v2/plain', { any: 'thing' });
    await t.post('/api/v2/plain', [1, 2]);
    expect(inputs).toEqual([
      { body: undefined, query: undefined },
      { body: undefined, query: undefined },
    ]);
    expect(inputs[0]).toBe(inputs[1]);
    expect(Object.isFrozen(inputs[0])).toBe(true);
  });

  it('refuse a requestSchema on a route that reads no body, at composition', () => {
    const streaming = defineFeature({
      id: 'streaming',
      kernel: '^0.1.0',
      register(f) {
        f.route({ method: 'PUT', path: '/api/v2/upload', right: 'sample:write', body: false, requestSchema: object(), handler: () => null });
      },
    });
    expect(() => new Kernel({ features: [streaming], installDir: '/nonexistent-vigie', env: {}, store: memoryStoreFactory(), scheduler: agendaSchedulerFactory(), http: koaHttpServer(), logger: createLogger({ level: 'silent' }) })).toThrow(
      'feature streaming: route PUT /api/v2/upload reads no body (body: false), so its schema is requestDoc, not requestSchema',
    );
  });
});

describe('answers checked against the declared response schemas (tests only)', () => {
  const liar = defineFeature({
    id: 'liar',
    kernel: '^0.1.0',
    register(f) {
      f.route({
        method: 'GET',
        right: 'sample:read',
        path: '/api/v2/liar',
        responses: { 200: { description: 'a name', schema: object({ name: string().required() }) } },
        handler: () => ({ name: 42 }),
      });
      f.route({
        method: 'GET',
        right: 'sample:read',
        path: '/api/v2/page',
        responses: { 200: { description: 'a name, or the page for a browser', schema: object({ name: string().required() }) } },
        handler: (ctx) => {
          ctx.type = 'text/html';
          ctx.body = '<p>a page</p>';
        },
      });
    },
  });

  it('records each mismatch, and stop() fails naming the route', async () => {
    const kernel = await startTestKernel({ store: memoryStoreFactory(), features: [liar] });
    expect((await kernel.get('/api/v2/liar')).status).toBe(200);
    expect(kernel.responseMismatches).toEqual([
      { featureId: 'liar', method: 'GET', path: '/api/v2/liar', status: 200, problems: ['name must be a `string` type, but the final value was: `42`.'] },
    ]);
    await expect(kernel.stop()).rejects.toThrow('GET /api/v2/liar 200 (liar): name must be a `string` type');
  });

  it('checks JSON answers only, unless the doc names another media type', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [liar] });
    expect((await t.get('/api/v2/page')).text).toBe('<p>a page</p>');
    expect(t.responseMismatches).toEqual([]);
  });

  it('checks nothing when asked not to', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [liar], checkResponses: false });
    await t.get('/api/v2/liar');
    expect(t.responseMismatches).toEqual([]);
  });
});
