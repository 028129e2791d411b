import { defineRoute, type RouteDefinition } from '@vigie/kernel';
import { healthcheckQuerySchema, healthSummarySchema } from './schemas.js';
import { parseCriticals, serviceIds, HealthSummaryService } from './summary.js';

export const healthcheckRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    right: 'healthcheck:read',
    // The spec's form is `/api/v2/healthcheck/`. Declared without the slash, the route answers both forms
    // (declared with it, the router would refuse the form without).
    path: '/api/v2/healthcheck',
    summary: 'Operating state of the platform components',
    description: 'Runs every health check the composed features contribute and folds them into the five services of the summary.',
    tags: ['healthcheck'],
    querySchema: healthcheckQuerySchema,
    responses: { 200: { description: 'The healthcheck summary', schema: healthSummarySchema } },
    handler: (ctx, { query }) => {
      const given = query.criticals;
      const critical = given === undefined ? new Set(serviceIds) : parseCriticals([given].flat().join(','));
      return ctx.state.scope.resolve(HealthSummaryService).summary(critical);
    },
  }),
];
