import { defineRoute, type RouteDefinition } from '@vigie/kernel';
import { AuditLog } from './audit-log.js';
import { auditPageSchema, auditQuerySchema } from './schemas.js';

export const auditRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v2/audit',
    right: 'audit:read',
    summary: 'The audit log: every change made through the API',
    description:
      'Newest first. Each record says who (`user`: name, provider, API key), what (`method`, `route`, `path`, `params`, `right`), ' +
      'when (`at`, `ended`, epoch milliseconds), from where (`clientAddress`, honouring `[server] trusted_proxies`), the request ' +
      '`body` with secrets masked, and how it ended (`outcome`, `status`). `pending` after a restart: the server died while handling it.',
    tags: ['audit'],
    querySchema: auditQuerySchema,
    responses: { 200: { description: 'One page of records', schema: auditPageSchema } },
    handler: (ctx, { query }) => ctx.state.scope.resolve(AuditLog).find(query),
  }),
];
