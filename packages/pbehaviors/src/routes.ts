import { array, string } from 'yup';
import { HttpError, defineRoute, pathParam, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { creationBody, updateBody } from './pbehavior-input.js';
import { unknownIdMessage, PbehaviorService } from './pbehavior-service.js';
import {
  byEntityQuerySchema,
  createQuerySchema,
  deleteOutputSchema,
  errorSchema,
  flagValue,
  listQuerySchema,
  parseSort,
  pbehaviorBodySchema,
  pbehaviorCreationSchema,
  pbehaviorOutputSchema,
  readOutputSchema,
  readQuerySchema,
  updateOutputSchema,
} from './schemas.js';

const service = (ctx: VigieContext) => ctx.state.scope.resolve(PbehaviorService);
const badRequest = { description: 'Invalid pbehavior, filter, rule or parameter', schema: errorSchema };
const tags = ['pbehaviors'];

export const pbehaviorRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v2/pbehavior',
    right: 'pbehaviors:write',
    summary: 'Create a pbehavior',
    description:
      'Creates a pbehavior; its `eids` are the entities its filter selects. `author` defaults to the authenticated user. ' +
      'With `replace_expired=1`, an expired pbehavior holding the same `_id` is renamed `EXP<ms>-<_id>` and disabled first.',
    tags,
    body: { required: true, otherMedia: 'absent' },
    querySchema: createQuerySchema,
    requestSchema: pbehaviorCreationSchema,
    // The original's spellings (`filter_`, a filter as JSON text, `enabled` as text, null for absent) first.
    prepareBody: creationBody,
    responses: { 200: { description: 'The new pbehavior id, as a JSON string', schema: string().required() }, 400: badRequest },
    handler: async (ctx, { body, query }) => {
      const id = await service(ctx).create(body, { user: ctx.state.user?.name ?? '', replaceExpired: flagValue(query.replace_expired) === true });
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(id);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v2/pbehavior/*id',
    right: 'pbehaviors:write',
    summary: 'Update a pbehavior',
    description: 'Given fields replace the stored ones; null or absent fields, `eids` and `comments` are left as they are. `rrule: ""` removes the recurrence.',
    tags,
    requestSchema: pbehaviorBodySchema,
    prepareBody: updateBody,
    body: { otherMedia: 'absent' },
    responses: { 200: { description: 'The updated fields', schema: updateOutputSchema }, 400: badRequest },
    // An unknown id is answered before the body is looked at.
    preValidation: async (ctx) => {
      if (!(await service(ctx).exists(pathParam(ctx, 'id')))) throw new HttpError(400, unknownIdMessage);
    },
    handler: (ctx, { body }) => service(ctx).update(pathParam(ctx, 'id'), body),
  }),
  {
    method: 'DELETE',
    path: '/api/v2/pbehavior/*id',
    right: 'pbehaviors:write',
    summary: 'Delete a pbehavior',
    tags,
    responses: { 200: { description: 'How many pbehaviors were deleted (0 for an unknown id)', schema: deleteOutputSchema } },
    handler: (ctx) => service(ctx).delete(pathParam(ctx, 'id')),
  },
  defineRoute({
    method: 'GET',
    path: '/api/v2/pbehavior',
    right: 'pbehaviors:read',
    summary: 'List pbehaviors',
    description: 'Every pbehavior, or with `current_active_pbh=true` only those active at the time of the request.',
    tags,
    querySchema: listQuerySchema,
    responses: { 200: { description: 'The pbehaviors', schema: array(pbehaviorOutputSchema).required() }, 400: badRequest },
    handler: (ctx, { query }) => {
      return service(ctx).list({ currentlyActive: flagValue(query.current_active_pbh) === true });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v2/pbehavior_byeid/*entityId',
    right: 'pbehaviors:read',
    summary: 'The pbehaviors applied to an entity',
    description: 'Pbehaviors whose `eids` hold the entity id (which may contain slashes); `enabled=1|0` keeps only enabled or disabled ones.',
    tags,
    querySchema: byEntityQuerySchema,
    responses: { 200: { description: 'The pbehaviors', schema: array(pbehaviorOutputSchema).required() }, 400: badRequest },
    handler: (ctx, { query }) => {
      return service(ctx).forEntity(pathParam(ctx, 'entityId'), { enabled: flagValue(query.enabled) });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/pbehavior/read',
    right: 'pbehaviors:read',
    summary: 'Search and page through pbehaviors',
    description:
      '`_id` selects one pbehavior; `search` is a case-insensitive substring of name, reason, author, type_, connector, connector_name, ' +
      'comments, eids or filter; `sort` is JSON (`[{"property":"name","direction":"DESC"}]`, `["tstart"]`) or comma-separated field names; ' +
      '`current_active_pbh=true` keeps the active ones; `skip` and `limit` (0 for no limit) paginate.',
    tags,
    querySchema: readQuerySchema,
    responses: { 200: { description: 'One page, in the original route envelope', schema: readOutputSchema }, 400: badRequest },
    handler: (ctx, { query }) => {
      return service(ctx).read({
        id: query._id,
        search: query.search,
        limit: query.limit === undefined ? undefined : Number(query.limit),
        skip: query.skip === undefined ? undefined : Number(query.skip),
        currentlyActive: flagValue(query.current_active_pbh),
        sort: parseSort(query.sort),
      });
    },
  }),
];
