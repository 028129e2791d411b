import { array, object, string } from 'yup';
import { previewAnswerSchema, previewEventSchema, previewRoute } from '@vigie/rule-schemas';
import { RulePreviewService } from './rule-preview.js';
import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { validate, requestBody, pathParam, inputBounds, assertWithinInputBounds } from '@vigie/input';
import { defineBulkRoute, requireBulkItemId } from '@vigie/feature-kit';
import { createRuleErrors, emptyRequest, ruleErrors } from './errors.js';
import { notFound, RuleService } from './rule-service.js';
import { createdRuleSchema, emptyObjectSchema, ruleBodySchema, ruleOutputSchema } from './schemas.js';

const tags = ['eventfilter'];

function service(ctx: VigieContext): RuleService {
  return ctx.state.scope.resolve(RuleService);
}

/**
 * What the original checked before the rule's fields: that there is a rule, and its `_id` (`pathId`, on PUT, is the id
 * the body may repeat but not change). The kernel then validates the fields with `requestSchema`.
 */
function checkRuleBody(body: unknown, pathId?: string): void {
  // Falsy bodies and empty objects or lists were "empty" to the original.
  if (!body || (typeof body === 'object' && Object.keys(body).length === 0)) throw new HttpError(400, emptyRequest);
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'Malformed JSON: the rule should be a JSON object');
  // `_id` is read before the schema: the bounds on the whole body must cover it too.
  assertWithinInputBounds(body);
  const requestedId = (body as Record<string, unknown>)._id;
  if (pathId !== undefined && requestedId !== undefined && requestedId !== pathId) throw new HttpError(400, 'The _id field should not be modified.');
  if (typeof requestedId === 'string' && requestedId.length > inputBounds.idLength) {
    throw new HttpError(400, `The _id field should be at most ${inputBounds.idLength} characters.`);
  }
}

const createRoute = defineRoute({
  method: 'POST',
  path: '/api/v2/eventfilter/rules',
  right: 'eventfilter:write',
  summary: 'Create an event-filter rule',
  description: 'An `_id` that is a non-empty string without spaces is kept; otherwise one is generated.',
  tags,
  requestSchema: ruleBodySchema,
  errors: createRuleErrors,
  responses: {
    200: { description: 'The id of the created rule', schema: createdRuleSchema },
    400: { description: '`Malformed JSON: <detail>`, `Empty request`, the rule problem (`Unexpected fields: <list>.`, …), `Operation failure while doing insert: <duplicate key>`' },
  },
  preValidation: (ctx) => checkRuleBody(requestBody(ctx)),
  handler: (ctx, { body }) => {
    const { _id: requestedId, ...rule } = body;
    return service(ctx).create(requestedId, rule);
  },
});

export const eventFilterRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: '/api/v2/eventfilter/rules/preview',
    resource: 'an event-filter rule',
    description:
      'Lists the recently processed events (a bounded sample per connector, as accepted: see `[engine] recent_events_*`) the rule\'s patterns match. ' +
      '`problem` says why the pipeline would skip the rule.',
    answer: previewAnswerSchema(previewEventSchema, { problem: string() }),
    handler: (ctx, body, limit) => {
      const { _id: requestedId, ...rule } = body;
      return ctx.state.scope.resolve(RulePreviewService).preview(service(ctx).draft(requestedId, rule), limit);
    },
  }),
defineRoute({
  method: 'PUT',
  path: '/api/v2/eventfilter/rules/:id',
  right: 'eventfilter:write',
  summary: 'Replace an event-filter rule',
  description: 'The body is a whole rule; its `_id`, when present, must be the path id.',
  tags,
  requestSchema: ruleBodySchema,
  responses: {
    200: { description: 'Replaced', schema: emptyObjectSchema },
    400: { description: '`Malformed JSON: <detail>`, `Empty request`, `The _id field should not be modified.`, the rule problem' },
    404: { description: '`No rule with id: <id>`' },
  },
  preValidation: async (ctx) => {
    const id = pathParam(ctx, 'id');
    if (!(await service(ctx).get(id))) throw notFound(id);
    checkRuleBody(requestBody(ctx), id);
  },
  handler: async (ctx, { body }) => {
    const { _id: _sameId, ...rule } = body;
    await service(ctx).replace(pathParam(ctx, 'id'), rule);
    return {};
  },
}),
{
  method: 'DELETE',
  path: '/api/v2/eventfilter/rules/:id',
  right: 'eventfilter:write',
  summary: 'Delete an event-filter rule',
  tags,
  responses: {
    200: { description: 'Deleted', schema: emptyObjectSchema },
    400: { description: '`No rule with id: <id>`' },
  },
  handler: async (ctx) => {
    await service(ctx).delete(pathParam(ctx, 'id'));
    return {};
  },
},
{
  method: 'GET',
  path: '/api/v2/eventfilter/rules/:id',
  right: 'eventfilter:read',
  summary: 'Get an event-filter rule',
  tags,
  responses: {
    200: { description: 'The rule', schema: ruleOutputSchema },
    404: { description: '`No rule with id: <id>`' },
  },
  handler: async (ctx) => {
    const id = pathParam(ctx, 'id');
    const rule = await service(ctx).get(id);
    if (!rule) throw notFound(id);
    return rule;
  },
},
{
  method: 'GET',
  path: '/api/v2/eventfilter/rules',
  right: 'eventfilter:read',
  summary: 'List event-filter rules',
  tags,
  responses: { 200: { description: 'Every rule, in the order the pipeline applies them (priority, then id)', schema: array(ruleOutputSchema) } },
  handler: (ctx) => service(ctx).list(),
},
];

/** A bulk item's answer when it names no `_id`, worded as the single route's resource words it. */
const missingIdMessage = 'The _id field is required.';

/** `POST/PUT/DELETE /api/v2/bulk/eventfilters`: each item as the single route does it (same checks, same words). */
export const bulkEventFilterRoutes: RouteDefinition[] = [
  defineBulkRoute({
    method: 'POST',
    path: '/api/v2/bulk/eventfilters',
    summary: 'Create event-filter rules',
    description: 'Each item is the body of `POST /api/v2/eventfilter/rules`; its result `id` is the created rule\'s id.',
    tags,
    right: 'eventfilter:write',
    itemSchema: ruleBodySchema,
    wording: { ...ruleErrors, ...createRuleErrors },
    work: async (ctx, item) => {
      checkRuleBody(item);
      const { _id: requestedId, ...rule } = validate(ruleBodySchema, item, { strict: true });
      return { id: (await service(ctx).create(requestedId, rule))._id };
    },
  }),
  defineBulkRoute({
    method: 'PUT',
    path: '/api/v2/bulk/eventfilters',
    summary: 'Replace event-filter rules',
    description: 'Each item is the body of `PUT /api/v2/eventfilter/rules/<_id>`, the rule to replace named by its `_id`.',
    tags,
    right: 'eventfilter:write',
    itemSchema: ruleBodySchema,
    wording: ruleErrors,
    work: async (ctx, item) => {
      const id = requireBulkItemId(item, missingIdMessage);
      if (!(await service(ctx).get(id))) throw notFound(id);
      checkRuleBody(item, id);
      const { _id: _sameId, ...rule } = validate(ruleBodySchema, item, { strict: true });
      await service(ctx).replace(id, rule);
    },
  }),
  defineBulkRoute({
    method: 'DELETE',
    path: '/api/v2/bulk/eventfilters',
    summary: 'Delete event-filter rules',
    description: 'Each item is `{_id}`, the rule to delete; an unknown id is a 400 item, as the single route answers.',
    tags,
    right: 'eventfilter:write',
    itemSchema: object({ _id: string().required() }),
    wording: ruleErrors,
    work: async (ctx, item) => {
      await service(ctx).delete(requireBulkItemId(item, missingIdMessage));
    },
  }),
];
