import type { RouteDefinition, VigieContext } from '@vigie/kernel';
import { requestBody, validate } from '@vigie/input';
import { consoleModulePath, helloConsoleModule } from './console.js';
import { HelloService } from './hello-service.js';
import { helloSchema, visitInputSchema, visitSchema } from './schemas.js';

const tags = ['hello'];
const service = (ctx: VigieContext) => ctx.state.scope.resolve(HelloService);

/** Declared routes: validated, documented in the OpenAPI document from their schemas. */
export const helloRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v2/hello',
    right: 'hello:read',
    summary: 'Greets the caller, with the plugin counters',
    tags,
    responses: { 200: { description: 'Greeting and counters', schema: helloSchema } },
    handler: (ctx) => service(ctx).status(ctx.state.user?.name ?? ''),
  },
  {
    method: 'POST',
    path: '/api/v2/hello/visits',
    right: 'hello:write',
    summary: 'Records a visit',
    tags,
    body: { required: true },
    requestSchema: visitInputSchema,
    responses: { 200: { description: 'The visit', schema: visitSchema }, 400: { description: 'Invalid body' } },
    handler: (ctx) => service(ctx).recordVisit(validate(visitInputSchema, requestBody(ctx), { strict: true }).name),
  },
  {
    method: 'GET',
    path: consoleModulePath,
    right: 'hello:read',
    summary: 'The console module of the hello plugin (a page, an alarm-list column and action)',
    tags,
    responses: { 200: { description: 'An ES module', contentType: 'text/javascript' } },
    handler: (ctx) => {
      ctx.type = 'text/javascript; charset=utf-8';
      return helloConsoleModule;
    },
  },
];
