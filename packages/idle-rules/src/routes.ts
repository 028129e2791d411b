import { array, number, object, string } from 'yup';
import { previewAlarmSchema, previewAnswerSchema, previewRoute } from '@vigie/rule-schemas';
import { IdleRuleEngine } from './idle-rule-engine.js';
import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam, validate } from '@vigie/input';
import { defineBulkRoute, requireBulkItemId } from '@vigie/feature-kit';
import { idleRuleErrors } from './errors.js';
import { notFound, IdleRuleService } from './idle-rule-service.js';
import { deleteResultSchema, idleRuleBodySchema, idleRuleSchema } from './schemas.js';

const tags = ['idle-rules'];

function service(ctx: VigieContext): IdleRuleService {
  return ctx.state.scope.resolve(IdleRuleService);
}

function author(ctx: VigieContext): string {
  return ctx.state.user?.name ?? '';
}

const createRoute = defineRoute({
  method: 'POST',
  path: '/api/v2/idle-rule',
  right: 'idle-rules:write',
  summary: 'Create an idle rule',
  description: 'The service sets `_id` (unless given), `author`, `creation_date` and `last_modified_date`.',
  tags,
  requestSchema: idleRuleBodySchema,
  responses: {
    200: { description: 'The created rule', schema: idleRuleSchema },
    400: { description: '`Invalid JSON`, `invalid idle rule: <detail>` or `failed to create idle rule: duplicate id <id>`' },
  },
  handler: (ctx, { body }) => service(ctx).create(body, author(ctx)),
});

export const idleRuleRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: '/api/v2/idle-rule/preview',
    resource: 'an idle rule',
    description:
      'Lists the open alarms the rule selects (alarm and entity patterns), each with `idle_since` and `idle_at` (when the rule fires on it, ' +
      'in the absence of new events or changes); `idle_now` counts those idle already, on which its first beat would act. `problem` says why the engine would skip the rule.',
    answer: previewAnswerSchema(previewAlarmSchema.shape({ idle_since: number().required(), idle_at: number().required() }), {
      idle_now: number().integer().required(),
      problem: string(),
    }),
    handler: (ctx, body, limit) => ctx.state.scope.resolve(IdleRuleEngine).preview(service(ctx).draft(body, author(ctx)), limit),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v2/idle-rule/:id',
    right: 'idle-rules:write',
    summary: 'Replace an idle rule',
    description: 'The body is a whole rule whose `_id` equals the path id; `creation_date` is kept, `author` and `last_modified_date` are refreshed.',
    tags,
    requestSchema: idleRuleBodySchema,
    responses: {
      200: { description: 'The updated rule', schema: idleRuleSchema },
      400: { description: '`Invalid JSON`, `invalid idle rule: <detail>` or `failed to update idle rule: the _id field should not be modified`' },
      404: { description: '`no idle rule with id <id>`' },
    },
    // As in the original, an unknown id answers 404 before the body is validated (REFERENCE §4.1).
    preValidation: async (ctx) => {
      const id = pathParam(ctx, 'id');
      if (!(await service(ctx).get(id))) throw notFound(id);
    },
    handler: (ctx, { body }) => service(ctx).update(pathParam(ctx, 'id'), body, author(ctx)),
  }),
  {
    method: 'DELETE',
    path: '/api/v2/idle-rule/:id',
    right: 'idle-rules:write',
    summary: 'Delete an idle rule',
    tags,
    responses: {
      200: { description: 'What was deleted', schema: deleteResultSchema },
      404: { description: '`no idle rule with id <id>`' },
    },
    handler: (ctx) => service(ctx).delete(pathParam(ctx, 'id')),
  },
  {
    method: 'GET',
    path: '/api/v2/idle-rule/:id',
    right: 'idle-rules:read',
    summary: 'Get an idle rule',
    tags,
    responses: {
      200: { description: 'The rule', schema: idleRuleSchema },
      404: { description: '`name` = the id, `description` = `Rule not found`' },
    },
    handler: async (ctx) => {
      const id = pathParam(ctx, 'id');
      const rule = await service(ctx).get(id);
      if (!rule) throw new HttpError(404, 'Rule not found', { name: id });
      return rule;
    },
  },
  {
    method: 'GET',
    right: 'idle-rules:read',
    // `/api/v2/idle-rule` is the original's only list route (REFERENCE §1): kept as an alias.
    path: ['/api/v2/idle-rules', '/api/v2/idle-rule'],
    summary: 'List idle rules',
    tags,
    responses: { 200: { description: 'Every rule, oldest first', schema: array(idleRuleSchema) } },
    handler: (ctx) => service(ctx).list(),
  },
];

/** A bulk item's answer when it names no `_id`, worded as the single route's resource words it. */
const missingIdMessage = 'invalid idle rule: _id is required';

/** `POST/PUT/DELETE /api/v2/bulk/idle-rules`: each item as the single route does it (same checks, same words). */
export const bulkIdleRuleRoutes: RouteDefinition[] = [
  defineBulkRoute({
    method: 'POST',
    path: '/api/v2/bulk/idle-rules',
    summary: 'Create idle rules',
    description: 'Each item is the body of `POST /api/v2/idle-rule`; its result `id` is the created rule\'s id.',
    tags,
    right: 'idle-rules:write',
    itemSchema: idleRuleBodySchema,
    wording: idleRuleErrors,
    work: async (ctx, item) => ({ id: (await service(ctx).create(validate(idleRuleBodySchema, item, { strict: true }), author(ctx)))._id }),
  }),
  defineBulkRoute({
    method: 'PUT',
    path: '/api/v2/bulk/idle-rules',
    summary: 'Replace idle rules',
    description: 'Each item is the body of `PUT /api/v2/idle-rule/<_id>`, the rule to replace named by its `_id`.',
    tags,
    right: 'idle-rules:write',
    itemSchema: idleRuleBodySchema,
    wording: idleRuleErrors,
    work: async (ctx, item) => {
      const id = requireBulkItemId(item, missingIdMessage);
      // As the single route: an unknown id is a 404 before the body is validated.
      if (!(await service(ctx).get(id))) throw notFound(id);
      await service(ctx).update(id, validate(idleRuleBodySchema, item, { strict: true }), author(ctx));
    },
  }),
  defineBulkRoute({
    method: 'DELETE',
    path: '/api/v2/bulk/idle-rules',
    summary: 'Delete idle rules',
    description: 'Each item is `{_id}`, the rule to delete.',
    tags,
    right: 'idle-rules:write',
    itemSchema: object({ _id: string().required() }),
    wording: idleRuleErrors,
    work: async (ctx, item) => {
      await service(ctx).delete(requireBulkItemId(item, missingIdMessage));
    },
  }),
];
