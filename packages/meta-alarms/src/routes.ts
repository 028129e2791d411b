import { array, boolean, number, object, string } from 'yup';
import { previewAlarmSchema, previewAnswerSchema, previewRoute } from '@vigie/rule-schemas';
import { MetaAlarmRulePreviewService } from './rule-preview.js';
import { defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { MetaAlarmRuleService } from './meta-alarm-rule-service.js';
import { checkRuleOrder, ruleBody } from './rule-input.js';
import { deleteResultSchema, metaAlarmRuleInputSchema, metaAlarmRuleSchema } from './schemas.js';

const tags = ['meta-alarms'];
const collectionPath = '/api/v2/metaalarmrule';
// The original's default `<id>`: one path segment (REFERENCE §3.5).
const rulePath = '/api/v2/metaalarmrule/:id';

const service = (ctx: VigieContext) => ctx.state.scope.resolve(MetaAlarmRuleService);

const createRoute = defineRoute({
  method: 'POST',
  path: collectionPath,
  right: 'meta-alarms:write',
  summary: 'Create a meta-alarm rule',
  tags,
  body: { required: true, otherMedia: 'absent' },
  // The original's answer depends on the order of the checks across fields (REFERENCE §4.7): they run first, then
  // the schema checks the values, once `patterns` and `config` sent as JSON text are decoded.
  preValidation: checkRuleOrder,
  prepareBody: ruleBody,
  requestSchema: metaAlarmRuleInputSchema,
  responses: {
    200: { description: 'The new rule id as bare text', contentType: 'text/plain', schema: string() },
    400: { description: 'Malformed JSON, missing name or type, invalid type or config, or an _id already taken' },
  },
  handler: async (ctx, { body }) => {
    const id = await service(ctx).create(body);
    // Bare text, as the spec says; text/plain (not the original's text/html) so an id is never read as markup.
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = id;
  },
});

const groupSchema = object({
  key: string().required(),
  open_time: number().required(),
  alarms: number().integer().required(),
  reaches_threshold: boolean().nullable().defined(),
  entities: array(string().required()).required(),
});

export const metaAlarmRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: `${collectionPath}/preview`,
    resource: 'a meta-alarm rule',
    description:
      'Lists the open alarms the rule selects (its entity scope, alarm and entity patterns; for timebased and complex rules, those updated within the ' +
      'last `time_interval`, from `window_start`) and the `groups` it would form from them: by component (relation), one (attribute), or by ' +
      'time_interval in update order (timebased, complex), each saying whether it reaches `threshold_count`. Event patterns need an event: not applied.',
    answer: previewAnswerSchema(previewAlarmSchema, { window_start: number().nullable().defined(), groups: array(groupSchema).required(), problem: string() }),
    handler: (ctx, body, limit) => ctx.state.scope.resolve(MetaAlarmRulePreviewService).preview(service(ctx).draft(body), limit),
  }),
  {
    method: 'GET',
    path: collectionPath,
    right: 'meta-alarms:read',
    summary: 'List meta-alarm rules',
    tags,
    responses: { 200: { description: 'Every rule, by _id', schema: array(metaAlarmRuleSchema) } },
    handler: (ctx) => service(ctx).list(),
  },
  {
    method: 'GET',
    path: rulePath,
    right: 'meta-alarms:read',
    summary: 'Get a meta-alarm rule',
    tags,
    responses: { 200: { description: 'The rule, or null when none has this id', schema: metaAlarmRuleSchema.nullable() } },
    handler: async (ctx) => (await service(ctx).get(pathParam(ctx, 'id'))) ?? null,
  },
  defineRoute({
    method: 'PUT',
    path: rulePath,
    right: 'meta-alarms:write',
    summary: 'Replace a meta-alarm rule',
    description: 'Not shown in the spec. Full replacement with the same checks as POST; the body _id, when given, must equal the path id.',
    tags,
    body: { required: true, otherMedia: 'absent' },
    // Checked as POST's body.
    preValidation: checkRuleOrder,
    prepareBody: ruleBody,
    requestSchema: metaAlarmRuleInputSchema,
    responses: {
      200: { description: 'The rule as stored', schema: metaAlarmRuleSchema },
      400: { description: 'Malformed JSON, an invalid rule, or a body _id other than the path id' },
      404: { description: 'No rule has this id' },
    },
    handler: (ctx, { body }) => service(ctx).update(pathParam(ctx, 'id'), body),
  }),
  {
    method: 'DELETE',
    path: rulePath,
    right: 'meta-alarms:write',
    summary: 'Delete a meta-alarm rule',
    tags,
    responses: { 200: { description: 'deletedCount is 0 when no rule has this id', schema: deleteResultSchema } },
    handler: (ctx) => service(ctx).delete(pathParam(ctx, 'id')),
  },
];
