import { array, boolean, number, object, string } from 'yup';
import { previewEntitySchema, previewAnswerSchema, previewRoute } from '@vigie/rule-schemas';
import { PbehaviorCalendar, defaultCalendarLimit } from './pbehavior-calendar.js';
import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { checkedFilter, creationBody, parseFilterText, updateBody } from './pbehavior-input.js';
import { unknownIdMessage, PbehaviorService } from './pbehavior-service.js';
import {
  byEntityQuerySchema,
  calendarSchema,
  maxCalendarDays,
  maxCalendarLimit,
  timespansQuerySchema,
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

const createRoute = defineRoute({
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
});

const windowSchema = object({ start: number().integer().required(), end: number().integer().required() });

export const pbehaviorRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: '/api/v2/pbehavior/preview',
    resource: 'a pbehavior',
    description:
      'Lists the entities the filter selects (those the pbehavior pauses while active), says whether it would be active now (`active_now`) ' +
      'and gives its next occurrences within a year (at most 10: `next_occurrences`, in force or to come).',
    answer: previewAnswerSchema(previewEntitySchema, { enabled: boolean().required(), active_now: boolean().required(), next_occurrences: array(windowSchema).required() }),
    handler: (ctx, body, limit) => service(ctx).preview(body, ctx.state.user?.name ?? '', limit),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v2/pbehavior-timespans',
    right: 'pbehaviors:read',
    summary: 'The maintenance calendar: pbehavior occurrences in a time window',
    description:
      'Expands the occurrences of every enabled pbehavior (rrule, exdates, its time zone) that overlap [`from`, `to`] (epoch seconds, at most ' +
      `${maxCalendarDays} days apart), for one \`entity\`, the entities an entity \`filter\` (JSON text) selects, or all; sorted by start. ` +
      '`start_local` and `end_local` are written in `timezone` (default: `[pbehaviors] default_timezone`); `active` marks the occurrence in force now. ' +
      `\`count\` is every occurrence in the window; \`timespans\` holds page \`page\` (default 1) of \`limit\` (default ${defaultCalendarLimit}, at most ${maxCalendarLimit}).`,
    tags,
    querySchema: timespansQuerySchema,
    queryOptions: { singleValued: true },
    responses: { 200: { description: 'The occurrences', schema: calendarSchema }, 400: badRequest },
    handler: (ctx, { query }) =>
      ctx.state.scope.resolve(PbehaviorCalendar).timespans({
        from: query.from,
        to: query.to,
        entity: query.entity,
        filter: query.filter === undefined ? undefined : checkedFilter(parseFilterText(query.filter)),
        timezone: query.timezone,
        limit: query.limit,
        page: query.page,
      }),
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
