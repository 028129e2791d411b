import { object, string } from 'yup';
import { previewAlarmSchema, previewAnswerSchema, previewRoute } from '@vigie/rule-schemas';
import { DynamicInfosEngine } from './dynamic-infos-engine.js';
import { ErrorCodes, defineRoute, errorDetail, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { DynamicInfosService } from './dynamic-infos-service.js';
import { storeFailure } from './errors.js';
import { dynamicInfosInputSchema, dynamicInfosRuleSchema, listQuerySchema, ruleListSchema } from './schemas.js';

const tags = ['dynamic-infos'];
const collectionPath = '/api/v2/dynamic-infos';
// Ids may contain `/` (REFERENCE §3.5).
const rulePath = '/api/v2/dynamic-infos/*id';

const service = (ctx: VigieContext) => ctx.state.scope.resolve(DynamicInfosService);
const author = (ctx: VigieContext) => ctx.state.user?.name ?? '';

const notFound = { description: 'No rule has this id: no dynamic infos rule with id <id>' };

const createRoute = defineRoute({
  method: 'POST',
  path: collectionPath,
  right: 'dynamic-infos:write',
  summary: 'Create a dynamic infos rule',
  tags,
  body: { required: true, otherMedia: 'absent' },
  errors: { [ErrorCodes.StoreFailure]: (e) => ({ status: 400, description: `failed to create dynamic infos: ${errorDetail(e)}` }) },
  requestSchema: dynamicInfosInputSchema,
  responses: {
    200: { description: 'The rule with author, creation_date and last_modified_date', schema: dynamicInfosRuleSchema },
    400: { description: 'Invalid JSON, an invalid rule, a duplicate id or a database error' },
  },
  handler: (ctx, { body }) => service(ctx).create(body, author(ctx)),
});

export const dynamicInfosRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: `${collectionPath}/preview`,
    resource: 'a dynamic infos rule',
    description: 'Lists the open alarms the rule selects (alarm and entity patterns), each with the `infos` it would set, rendered. `problem` says why the engine would skip the rule.',
    answer: previewAnswerSchema(previewAlarmSchema.shape({ infos: object().required() }), { problem: string() }),
    handler: (ctx, body, limit) => ctx.state.scope.resolve(DynamicInfosEngine).preview(service(ctx).draft(body, author(ctx)), limit),
  }),
  defineRoute({
    method: 'GET',
    path: collectionPath,
    right: 'dynamic-infos:read',
    summary: 'List dynamic infos rules',
    description: 'search is a literal, case-insensitive substring looked for in any of search_fields.',
    tags,
    querySchema: listQuerySchema,
    queryOptions: { strict: true },
    // Query problems are not rule problems: their texts stand alone.
    errors: {
      [ErrorCodes.Validation]: (e) => ({ status: 400, description: e.detail }),
      ...storeFailure('Cannot retrieve the dynamic infos list from the database, please contact your administrator.'),
    },
    responses: {
      200: { description: 'count: how many rules match; rules: the requested page', schema: ruleListSchema },
      400: { description: 'An invalid limit, offset, skip, sort_dir or search field' },
    },
    handler: (ctx, { query }) => service(ctx).list(query),
  }),
  {
    method: 'GET',
    path: rulePath,
    right: 'dynamic-infos:read',
    summary: 'Get a dynamic infos rule',
    tags,
    errors: storeFailure('Cannot retrieve the dynamic infos rule from the database, please contact your administrator.'),
    responses: { 200: { description: 'The rule', schema: dynamicInfosRuleSchema }, 404: notFound },
    handler: (ctx) => service(ctx).get(pathParam(ctx, 'id')),
  },
  defineRoute({
    method: 'PUT',
    path: rulePath,
    right: 'dynamic-infos:write',
    summary: 'Replace a dynamic infos rule',
    description: 'author, creation_date and last_modified_date in the body are ignored: the first two are kept, the third refreshed.',
    tags,
    body: { required: true, otherMedia: 'absent' },
    errors: storeFailure('failed to update dynamic infos'),
    requestSchema: dynamicInfosInputSchema,
    responses: {
      200: { description: 'The updated rule', schema: dynamicInfosRuleSchema },
      400: { description: 'Invalid JSON, an invalid rule, or a body _id other than the path id' },
      404: notFound,
    },
    handler: (ctx, { body }) => service(ctx).update(pathParam(ctx, 'id'), body, author(ctx)),
  }),
  {
    method: 'DELETE',
    path: rulePath,
    right: 'dynamic-infos:write',
    summary: 'Delete a dynamic infos rule',
    tags,
    errors: storeFailure('failed to delete dynamic infos'),
    responses: { 200: { description: 'An empty object', schema: object({}) }, 404: notFound },
    handler: (ctx) => service(ctx).delete(pathParam(ctx, 'id')),
  },
];
