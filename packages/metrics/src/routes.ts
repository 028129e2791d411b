import { string } from 'yup';
import { secretsEqual, type RouteDefinition } from '@vigie/kernel';
import { bearerRequired } from './errors.js';
import { MetricsRegistry } from './metrics-registry.js';

/**
 * `GET /metrics` in the Prometheus text format. With a token configured the route checks `Authorization: Bearer`
 * itself (Prometheus sends no Basic credentials by default); without one it needs the usual credentials.
 */
export function metricsRoutes(token: string | undefined): RouteDefinition[] {
  return [
    {
      method: 'GET',
      ...(token === undefined ? { right: 'metrics:read' } : { public: true }),
      path: '/metrics',
      summary: 'Prometheus metrics: HTTP requests, store operations, jobs, event pipeline, process',
      description: token === undefined ? undefined : 'Needs `Authorization: Bearer <[metrics] token>` instead of the usual credentials.',
      tags: ['metrics'],
      responses: { 200: { description: 'Prometheus text exposition format', contentType: 'text/plain', schema: string() } },
      handler: async (ctx) => {
        if (token !== undefined) {
          const given = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1];
          if (given === undefined || !secretsEqual(given, token)) throw bearerRequired();
        }
        const { contentType, text } = await ctx.state.scope.resolve(MetricsRegistry).exposition();
        ctx.type = contentType;
        ctx.set('Cache-Control', 'no-store');
        return text;
      },
    },
  ];
}
