import { array } from 'yup';
import { HttpError, validate, type RouteDefinition, type VigieContext, requestBody, pathParam, inputBounds, assertWithinInputBounds } from '@vigie/kernel';
import { createRuleErrors, emptyRequest } from './errors.js';
import { notFound, RuleService } from './rule-service.js';
import { createdRuleSchema, emptyObjectSchema, ruleBodySchema, ruleOutputSchema, ruleSchema } from './schemas.js';

const tags = ['eventfilter'];

function service(ctx: VigieContext): RuleService {
  return ctx.state.scope.resolve(RuleService);
}

/**
 * The body's `_id` and the validated rest. `pathId` (PUT) is the id the body may repeat but not change; the
 * original checked that before anything else in the rule.
 */
function readRule(ctx: VigieContext, pathId?: string) {
  const body = requestBody(ctx);
  // Falsy bodies and empty objects or lists were "empty" to the original.
  if (!body || (typeof body === 'object' && Object.keys(body).length === 0)) throw new HttpError(400, emptyRequest);
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'Malformed JSON: the rule should be a JSON object');
  // `_id` is read apart from the schema: the bounds on the whole body must cover it too.
  assertWithinInputBounds(body);
  const { _id: requestedId, ...rest } = body as Record<string, unknown>;
  if (pathId !== undefined && requestedId !== undefined && requestedId !== pathId) throw new HttpError(400, 'The _id field should not be modified.');
  if (typeof requestedId === 'string' && requestedId.length > inputBounds.idLength) {
    throw new HttpError(400, `The _id field should be at most ${inputBounds.idLength} characters.`);
  }
  return { requestedId, rule: validate(ruleSchema, rest, { strict: true }) };
}

export const eventFilterRoutes: RouteDefinition[] = [
  {
    method: 'POST',
    path: '/api/v2/eventfilter/rules',
    summary: 'Create an event-filter rule',
    description: 'An `_id` that is a non-empty string without spaces is kept; otherwise one is generated.',
    tags,
    requestSchema: ruleBodySchema,
    errors: createRuleErrors,
    responses: {
      200: { description: 'The id of the created rule', schema: createdRuleSchema },
      400: { description: '`Malformed JSON: <detail>`, `Empty request`, the rule problem (`Unexpected fields: <list>.`, …), `Operation failure while doing insert: <duplicate key>`' },
    },
    handler: (ctx) => {
      const { requestedId, rule } = readRule(ctx);
      return service(ctx).create(requestedId, rule);
    },
  },
  {
    method: 'PUT',
    path: '/api/v2/eventfilter/rules/:id',
    summary: 'Replace an event-filter rule',
    description: 'The body is a whole rule; its `_id`, when present, must be the path id.',
    tags,
    requestSchema: ruleBodySchema,
    responses: {
      200: { description: 'Replaced', schema: emptyObjectSchema },
      400: { description: '`Malformed JSON: <detail>`, `Empty request`, `The _id field should not be modified.`, the rule problem' },
      404: { description: '`No rule with id: <id>`' },
    },
    handler: async (ctx) => {
      const id = pathParam(ctx, 'id');
      const rules = service(ctx);
      if (!(await rules.get(id))) throw notFound(id);
      await rules.replace(id, readRule(ctx, id).rule);
      return {};
    },
  },
  {
    method: 'DELETE',
    path: '/api/v2/eventfilter/rules/:id',
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
    summary: 'List event-filter rules',
    tags,
    responses: { 200: { description: 'Every rule, in the order the pipeline applies them (priority, then id)', schema: array(ruleOutputSchema) } },
    handler: (ctx) => service(ctx).list(),
  },
];
