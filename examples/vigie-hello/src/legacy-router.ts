import Router from '@koa/router';
import type { RouterOptions, VigieState } from '@vigie/kernel';
import { HelloService } from './hello-service.js';

/**
 * Routes brought as an existing `@koa/router` router. The kernel authenticates them, gives them the plugin's
 * scope in `ctx.state.scope` and renders their errors; they are listed in the OpenAPI document.
 */
export function legacyRouter(): Router<VigieState> {
  const router = new Router<VigieState>({ prefix: '/api/v2/hello/legacy' });
  router.get('/greetings/:name', (ctx) => {
    ctx.body = { message: ctx.state.scope.resolve(HelloService).greet(ctx.params.name ?? '') };
  });
  router.get('/ping', (ctx) => {
    ctx.body = { pong: true };
  });
  return router;
}

/** Documentation of the router's routes; `/ping` stays undocumented on purpose. */
export const legacyRouterOptions: RouterOptions = {
  // The right every route of the router needs (a `docs` entry may name another for its route).
  right: 'hello:read',
  docs: { 'GET /api/v2/hello/legacy/greetings/:name': { summary: 'Greets someone by name', tags: ['hello'] } },
};
