import { boolean, number, object, string, type InferType } from 'yup';
import { defineFeature, defineRoute } from '../../src/feature.js';
import { ErrorCodes, HttpError } from '../../src/errors.js';
import { pathParam } from '@vigie/input';
import type { Scheduler } from '../../src/scheduler/port.js';
import { kernelRefs } from '../../src/kernel-refs.js';
import { serviceRef } from '../../src/refs.js';
import { GreetingPolicy, greetingsCollection, sampleConfig } from './greeting-policy.js';
import { sampleBridge } from './di.js';


/** A service declared with a factory that uses the tsyringe-built policy. */
export class GreetingService {
  constructor(
    private readonly policy: GreetingPolicy,
    private readonly scheduler: Scheduler,
  ) {}

  async greet(name: string): Promise<{ text: string; at: number }> {
    await this.scheduler.now('sample.remember', { name });
    return this.policy.greet(name);
  }
}

export const greetingServiceRef = serviceRef<GreetingService>('sample.greetingService');

/** One description of the greeting body: the kernel validates it, and its type is inferred from it. */
export const greetingSchema = object({ name: string().required() }).noUnknown().required();
export type GreetingInput = InferType<typeof greetingSchema>;
const greetedSchema = object({ greeted: string().required(), by: string().required() });
export const greetingQuerySchema = object({ limit: number().integer().min(1).default(10), loud: boolean() });

export const sampleFeature = defineFeature({
  id: 'sample',
  kernel: '^0.1.0',
  config: sampleConfig,
  register(f) {
    f.collection(greetingsCollection);
    f.use(sampleBridge);
    f.service(greetingServiceRef, (scope) => new GreetingService(scope.resolve(GreetingPolicy), scope.resolve(kernelRefs.scheduler)), { export: true });
    f.errors({
      [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Malformed greeting' }),
      [ErrorCodes.Validation]: (e) => ({ status: 400, description: `invalid greeting: ${e.detail}` }),
    });
    f.route({
      method: 'GET',
      right: 'sample:read',
      path: '/api/v2/greet/*name',
      handler: async (ctx) => ctx.state.scope.resolve(greetingServiceRef).greet(pathParam(ctx, 'name')),
    });
    f.route(
      defineRoute({
        method: 'POST',
        right: 'sample:write',
        path: '/api/v2/greet',
        requestSchema: greetingSchema,
        responses: { 200: { description: 'Who was greeted, by whom', schema: greetedSchema } },
        // `body` is a GreetingInput: validated and typed by the kernel from requestSchema.
        handler: (ctx, { body }) => ({ greeted: body.name, by: ctx.state.user?.name }),
      }),
    );
    f.route(
      defineRoute({
        method: 'GET',
        right: 'sample:read',
        path: '/api/v2/greetings',
        querySchema: greetingQuerySchema,
        queryOptions: { singleValued: true },
        handler: (_ctx, { query }) => ({ limit: query.limit, loud: query.loud }),
      }),
    );
    f.route({
      method: 'GET',
      right: 'sample:read',
      path: '/api/v2/greet-count/:name',
      handler: async (ctx) => ({ count: await ctx.state.scope.resolve(GreetingPolicy).count(ctx.params.name as string) }),
    });
    f.route({
      method: 'GET',
      right: 'sample:read',
      path: '/api/v2/teapot',
      handler: () => {
        throw new HttpError(418, 'short and stout', { name: 'teapot' });
      },
    });
    f.route({
      method: 'GET',
      right: 'sample:read',
      path: '/api/v2/boom',
      handler: () => {
        throw new Error('secret internal detail');
      },
    });
    f.route({ method: 'GET', path: '/public/ping', public: true, handler: () => ({ pong: true }) });
    f.job<{ name: string }>({
      name: 'sample.remember',
      handler: async (run) => {
        await run.scope.resolve(GreetingPolicy).remember(run.data.name);
      },
    });
    f.healthCheck({
      name: 'sample',
      check: async (scope) => {
        const policy = scope.resolve(GreetingPolicy);
        return { ok: policy.greet('x').text.length > 0, message: '' };
      },
    });
  },
});
