import { defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { maxSavedFiltersPerUser, SavedFilters } from './saved-filters.js';
import { errorSchema, savedFilterChangeSchema, savedFilterInputSchema, savedFilterListSchema, savedFilterSchema } from './schemas.js';

const tags = ['console'];
const collectionPath = '/api/v2/saved-filters';
const itemPath = '/api/v2/saved-filters/:id';
/**
 * A user's saved views are part of their own account, like their password: every signed-in user may keep them,
 * viewers included, and no one reaches another user's.
 */
const right = 'account:own';

const filters = (ctx: VigieContext) => ctx.state.scope.resolve(SavedFilters);
const owner = (ctx: VigieContext) => (ctx.state.user as { id: string }).id;

const invalid = { description: 'Invalid body (the field at fault named)', schema: errorSchema };
const missing = { description: '`No saved filter with id <id>` (also for another user\'s filter)', schema: errorSchema };
const conflict = {
  description: `\`A saved filter named <name> already exists\`, or \`At most ${maxSavedFiltersPerUser} saved filters per user: delete one first\``,
  schema: errorSchema,
};

/** `GET/POST /api/v2/saved-filters`, `PUT/DELETE /api/v2/saved-filters/<id>`: the signed-in user's saved alarm-list views. */
export const savedFilterRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: collectionPath,
    right,
    summary: 'List the alarm-list views the signed-in user saved',
    tags,
    responses: { 200: { description: 'The user\'s own saved filters, by name', schema: savedFilterListSchema } },
    handler: async (ctx) => ({ data: await filters(ctx).list(owner(ctx)) }),
  },
  defineRoute({
    method: 'POST',
    path: collectionPath,
    right,
    summary: 'Save an alarm-list view under a name',
    description: `\`{name, query}\`: a name unique among the user's filters (1 to 100 characters) and the list's URL query without \`?\` (at most 4096 characters). At most ${maxSavedFiltersPerUser} per user.`,
    tags,
    requestSchema: savedFilterInputSchema,
    responses: { 200: { description: 'The saved filter', schema: savedFilterSchema }, 400: invalid, 409: conflict },
    handler: (ctx, { body }) => filters(ctx).create(owner(ctx), { name: body.name, query: body.query }),
  }),
  defineRoute({
    method: 'PUT',
    path: itemPath,
    right,
    summary: 'Rename a saved filter or change its view',
    description: '`{name?, query?}`: the fields given replace the stored ones.',
    tags,
    requestSchema: savedFilterChangeSchema,
    responses: { 200: { description: 'The saved filter', schema: savedFilterSchema }, 400: invalid, 404: missing, 409: conflict },
    handler: (ctx, { body }) =>
      filters(ctx).update(owner(ctx), pathParam(ctx, 'id'), { ...(body.name !== undefined ? { name: body.name } : {}), ...(body.query !== undefined ? { query: body.query } : {}) }),
  }),
  {
    method: 'DELETE',
    path: itemPath,
    right,
    summary: 'Delete a saved filter',
    tags,
    responses: { 204: { description: 'Deleted' }, 404: missing },
    handler: async (ctx) => {
      await filters(ctx).delete(owner(ctx), pathParam(ctx, 'id'));
      ctx.status = 204;
      return undefined;
    },
  },
];
