import { object, string } from 'yup';
import type { RouteDefinition } from '@vigie/kernel';

const accountSchema = object({ id: string().required(), name: string().required(), role: string(), via: string().required() });

/** Vigie addition (not in the spec): who the credentials of this request belong to. */
export const accountRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v2/account/me',
    summary: 'The authenticated user',
    tags: ['auth'],
    responses: { 200: { description: 'The user the request authenticated as', schema: accountSchema } },
    handler: (ctx) => {
      const user = ctx.state.user;
      ctx.body = { id: user?.id, name: user?.name, role: user?.role ?? null, via: user?.via };
    },
  },
];
