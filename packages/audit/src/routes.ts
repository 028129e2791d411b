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
      '`body` with secrets masked, how it ended (`outcome`, `status`), and the documents it wrote (`changes`: before and after, ' +
      'secrets masked, at most 100; `changesOmitted` counts the rest). `pending` after a restart: the server died while handling it. ' +
      '`refused`: a write turned down before its handler (401, 429, 403), with `reason` and who tried.',
    tags: ['audit'],
    querySchema: auditQuerySchema,
    responses: { 200: { description: 'One page of records', schema: auditPageSchema } },
    handler: (ctx, { query }) => ctx.state.scope.resolve(AuditLog).find(query),
  }),
];
