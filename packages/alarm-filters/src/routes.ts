import { number, string } from 'yup';
import { previewAlarmSchema, previewAnswerSchema, previewRoute } from '@vigie/rule-schemas';
import { AlarmFilterEngine } from './alarm-filter-engine.js';
import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { AlarmFilterService } from './alarm-filter-service.js';
import { alarmFilterCreateSchema, alarmFilterListSchema, alarmFilterSchema, alarmFilterUpdateSchema, deletedSchema, errorSchema } from './schemas.js';

const collectionPath = '/api/v2/alerts/filters';
/** Ids may contain `/` (the original's id converter matches `.+`). */
const itemPath = '/api/v2/alerts/filters/*id';
const tags = ['alarm-filters'];

const service = (ctx: VigieContext) => ctx.state.scope.resolve(AlarmFilterService);

const invalidBody = { description: 'Invalid body (spec): an HTML page; the trace is in the server log', contentType: 'text/html' };

const createRoute = defineRoute({
  method: 'POST',
  path: collectionPath,
  right: 'alarm-filters:write',
  summary: 'Create an alarm-filter action',
  description: '`condition` and `entity_filter` may be objects or JSON text; both are stored as JSON text.',
  tags,
  body: { required: true },
  requestSchema: alarmFilterCreateSchema,
  responses: {
    200: { description: 'The created action with its `_id` and `repeat`', schema: alarmFilterSchema },
    400: { description: '`an alarm filter with this _id already exists`', schema: errorSchema },
    500: invalidBody,
  },
  handler: (ctx, { body }) => service(ctx).create(body),
});

export const alarmFilterRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: `${collectionPath}/preview`,
    resource: 'an alarm-filter action',
    description:
      'Lists the open alarms `entity_filter` and `condition` select, each with `due_at` (when its first run applies the tasks); `due_now` counts ' +
      'those due already, on which the first beat runs. `problem` says why the engine would skip the action.',
    answer: previewAnswerSchema(previewAlarmSchema.shape({ due_at: number().required() }), { due_now: number().integer().required(), problem: string() }),
    handler: (ctx, body, limit) => ctx.state.scope.resolve(AlarmFilterEngine).preview(service(ctx).draft(body), limit),
  }),
  {
    method: 'GET',
    path: collectionPath,
    right: 'alarm-filters:read',
    summary: 'List alarm-filter actions (Vigie addition)',
    tags,
    responses: { 200: { description: 'Every action, by id', schema: alarmFilterListSchema } },
    handler: (ctx) => service(ctx).list(),
  },
  {
    method: 'GET',
    path: itemPath,
    right: 'alarm-filters:read',
    summary: 'Get an alarm-filter action',
    tags,
    responses: { 200: { description: 'An array holding the action, empty when no action has this id', schema: alarmFilterListSchema } },
    handler: (ctx) => service(ctx).find(pathParam(ctx, 'id')),
  },
  defineRoute({
    method: 'PUT',
    path: itemPath,
    right: 'alarm-filters:write',
    summary: 'Update an alarm-filter action',
    description: 'Merges the given keys into the action; the others keep their values.',
    tags,
    body: { required: true },
    requestSchema: alarmFilterUpdateSchema,
    responses: {
      200: { description: 'The updated action', schema: alarmFilterSchema },
      400: { description: '`failed to update filter` (no action has this id)', schema: errorSchema },
      500: invalidBody,
    },
    handler: async (ctx, { body }) => {
      const updated = await service(ctx).update(pathParam(ctx, 'id'), body);
      if (!updated) throw new HttpError(400, 'failed to update filter');
      return updated;
    },
  }),
  {
    method: 'DELETE',
    path: itemPath,
    right: 'alarm-filters:write',
    summary: 'Delete an alarm-filter action',
    tags,
    responses: { 200: { description: '`n` actions deleted (0 when none has this id), `ok` 1', schema: deletedSchema } },
    handler: async (ctx) => ({ n: await service(ctx).delete(pathParam(ctx, 'id')), ok: 1 }),
  },
];
