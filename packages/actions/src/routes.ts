import { array, number, string } from 'yup';
import { previewAlarmSchema, previewAnswerSchema, previewRoute } from '@vigie/rule-schemas';
import { ActionEngine } from './action-engine.js';
import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { requestBody, pathParam } from '@vigie/input';
import { isJsonObject } from '@vigie/json';
import { actionNotFound, ActionService } from './action-service.js';
import { createActionErrors, updateActionErrors } from './errors.js';
import {
  actionBodySchema,
  actionDetailSchema,
  actionSchema,
  createdActionSchema,
  deletedSchema,
  emptyObjectSchema,
  isNonEmptyObject,
} from './schemas.js';

const tags = ['actions'];

function service(ctx: VigieContext): ActionService {
  return ctx.state.scope.resolve(ActionService);
}

/** `absent` answers a body `accepted` refuses (none, not an object) before its fields are checked, as the original did. */
function bodyAccepted(accepted: (value: unknown) => boolean, absent: string) {
  return (ctx: VigieContext): void => {
    if (!accepted(requestBody(ctx))) throw new HttpError(400, absent);
  };
}

const createRoute = defineRoute({
  method: 'POST',
  path: '/api/v2/actions',
  right: 'actions:write',
  summary: 'Create an action',
  description: '`_id` and `type` are required. Keys other than those of the schema are ignored.',
  tags,
  requestSchema: actionBodySchema,
  errors: createActionErrors,
  responses: {
    200: { description: 'The id of the created action', schema: createdActionSchema },
    400: { description: '`Invalid JSON`, `nothing to insert`, `invalid action format…`, `delay value is invalid`, `invalid pbehavior parameters`, `error while creating an action`, …' },
  },
  preValidation: bodyAccepted(isJsonObject, 'nothing to insert'),
  handler: (ctx, { body }) => service(ctx).create(body),
});

export const actionRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: '/api/v2/actions/preview',
    resource: 'an action',
    description:
      'Lists the open alarms the action selects (alarm and entity patterns, or the legacy fields and regex): those it is applied to at its next ' +
      '`triggers` (and event patterns), after `delay_seconds`. `problem` says why the engine would skip the action.',
    answer: previewAnswerSchema(previewAlarmSchema, { triggers: array(string().required()).required(), delay_seconds: number().required(), problem: string() }),
    handler: (ctx, body, limit) => ctx.state.scope.resolve(ActionEngine).preview(service(ctx).draft(body), limit),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v2/actions/*id',
    right: 'actions:write',
    summary: 'Replace an action',
    description: 'The body is a whole action whose `_id` is the path id; `creation_date` is kept.',
    tags,
    requestSchema: actionBodySchema,
    errors: updateActionErrors,
    responses: {
      200: { description: 'Replaced', schema: emptyObjectSchema },
      400: { description: '`Invalid JSON`, `wrong update dict`, `invalid action format…`, `error while updating an action: the _id field should not be modified`, …' },
      404: { description: '`failed to get action`' },
    },
    preValidation: bodyAccepted(isNonEmptyObject, 'wrong update dict'),
    handler: async (ctx, { body }) => {
      await service(ctx).update(pathParam(ctx, 'id'), body);
      return {};
    },
  }),
  {
    method: 'DELETE',
    path: '/api/v2/actions/*id',
    right: 'actions:write',
    summary: 'Delete an action',
    tags,
    responses: { 200: { description: '`true`, also when no action had this id (as the original)', schema: deletedSchema } },
    handler: async (ctx) => {
      await service(ctx).delete(pathParam(ctx, 'id'));
      return true;
    },
  },
  {
    method: 'GET',
    path: '/api/v2/actions/*id',
    right: 'actions:read',
    summary: 'Get an action',
    tags,
    responses: {
      200: { description: 'The action, with `hook` (or null), `parameters`, `regex` (or null) and `fields` always present', schema: actionDetailSchema },
      404: { description: '`failed to get action`' },
    },
    handler: async (ctx) => {
      const action = await service(ctx).get(pathParam(ctx, 'id'));
      if (!action) throw actionNotFound();
      return action;
    },
  },
  {
    method: 'GET',
    path: '/api/v2/actions',
    right: 'actions:read',
    summary: 'List actions',
    tags,
    responses: { 200: { description: 'Every action, by id', schema: array(actionSchema) } },
    handler: (ctx) => service(ctx).list(),
  },
];
