import { number, string } from 'yup';
import { previewAnswerSchema, previewEventSchema, previewRoute } from '@vigie/rule-schemas';
import { HeartbeatEngine } from './heartbeat-engine.js';
import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { HeartbeatService } from './heartbeat-service.js';
import { heartbeatInputSchema, heartbeatListSchema, heartbeatSchema, outcomeSchema, type HeartbeatInput } from './schemas.js';

const collectionPath = '/api/v2/heartbeat';
/** Ids may contain `/` (the original's id converter matches `.+`). */
const itemPath = '/api/v2/heartbeat/*id';
const tags = ['heartbeats'];

const service = (ctx: VigieContext) => ctx.state.scope.resolve(HeartbeatService);
/** The fields of a validated body the service takes: other keys, accepted and ignored, are left out. */
function heartbeatInput(body: HeartbeatInput): HeartbeatInput {
  return { pattern: body.pattern, expected_interval: body.expected_interval, output: body.output };
}

/** The spec's not-found answer: the id as `name` (the original swapped the two fields). */
function notFound(id: string): HttpError {
  return new HttpError(404, 'heartbeat not found', { name: id });
}

const errorResponses = {
  400: { description: '`invalid heartbeat payload.`, `heartbeat pattern already exists` or `database error, please contact your administrator.`', schema: outcomeSchema },
  404: { description: '`name` = the id, `description` = `heartbeat not found`', schema: outcomeSchema },
};

const createRoute = defineRoute({
  method: 'POST',
  path: collectionPath,
  right: 'heartbeats:write',
  summary: 'Create a heartbeat',
  description: 'The id derives from the pattern, so a second heartbeat for the same pattern is refused. Keys other than `pattern` and `expected_interval` are ignored.',
  tags,
  body: { required: true },
  requestSchema: heartbeatInputSchema,
  responses: {
    200: { description: '`{name: "heartbeat created", description: <id>}`', schema: outcomeSchema },
    400: errorResponses[400],
  },
  handler: async (ctx, { body }) => ({ name: 'heartbeat created', description: await service(ctx).create(heartbeatInput(body)) }),
});

export const heartbeatRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: `${collectionPath}/preview`,
    resource: 'a heartbeat',
    description:
      'Lists the recently processed events (a bounded sample per connector: see `[engine] recent_events_*`) the pattern matches; `last_match` is ' +
      'the newest of them and `alarm_at` when the alarm would be raised if no event matched from now on (the first beat starts the interval).',
    answer: previewAnswerSchema(previewEventSchema, { last_match: number().nullable().defined(), alarm_at: number().nullable().defined(), problem: string() }),
    handler: (ctx, body, limit) => ctx.state.scope.resolve(HeartbeatEngine).preview(service(ctx).draft(heartbeatInput(body)), limit),
  }),
  {
    method: 'GET',
    path: collectionPath,
    right: 'heartbeats:read',
    summary: 'List heartbeats',
    tags,
    responses: { 200: { description: 'Every heartbeat', schema: heartbeatListSchema }, 400: errorResponses[400] },
    handler: (ctx) => service(ctx).list(),
  },
  {
    method: 'GET',
    path: itemPath,
    right: 'heartbeats:read',
    summary: 'Get a heartbeat',
    tags,
    responses: { 200: { description: 'The heartbeat', schema: heartbeatSchema }, ...errorResponses },
    handler: async (ctx) => {
      const id = pathParam(ctx, 'id');
      const heartbeat = await service(ctx).get(id);
      if (!heartbeat) throw notFound(id);
      return heartbeat;
    },
  },
  defineRoute({
    method: 'PUT',
    path: itemPath,
    right: 'heartbeats:write',
    summary: 'Replace a heartbeat (not in the spec)',
    description: 'A new pattern gives the heartbeat a new id, returned as `description`.',
    tags,
    body: { required: true },
    requestSchema: heartbeatInputSchema,
    responses: { 200: { description: '`{name: "heartbeat updated", description: <id>}`', schema: outcomeSchema }, ...errorResponses },
    handler: async (ctx, { body }) => {
      const id = pathParam(ctx, 'id');
      const updatedId = await service(ctx).update(id, heartbeatInput(body));
      if (updatedId === null) throw notFound(id);
      return { name: 'heartbeat updated', description: updatedId };
    },
  }),
  {
    method: 'DELETE',
    path: itemPath,
    right: 'heartbeats:write',
    summary: 'Delete a heartbeat',
    tags,
    responses: { 200: { description: '`{name: "heartbeat removed", description: <id>}`', schema: outcomeSchema }, ...errorResponses },
    handler: async (ctx) => {
      const id = pathParam(ctx, 'id');
      if (!(await service(ctx).delete(id))) throw notFound(id);
      return { name: 'heartbeat removed', description: id };
    },
  },
];
