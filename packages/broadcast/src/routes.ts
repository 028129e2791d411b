import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { requestBody, pathParam } from '@vigie/input';
import { BroadcastMessageService } from './broadcast-message-service.js';
import { absentBodyErrors } from './errors.js';
import {
  broadcastMessageInputSchema,
  broadcastMessageListSchema,
  broadcastMessageSchema,
  createdSchema,
  deletedSchema,
  errorSchema,
  updatedSchema,
} from './schemas.js';

const collectionPath = '/api/v2/broadcast-message';
const itemPath = '/api/v2/broadcast-message/:id';
const tags = ['broadcast'];
const nothingToCreate = 'Nothing to create';
const nothingToUpdate = 'Nothing to update';

const service = (ctx: VigieContext) => ctx.state.scope.resolve(BroadcastMessageService);
/** An absent body or one that is not a JSON object gets the original's `absentAnswer` (a wrong one `Invalid payload`). */
function objectBody(absentAnswer: string) {
  return (ctx: VigieContext): void => {
    const body = requestBody(ctx);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, absentAnswer);
  };
}

const invalidBody = (absentAnswer: string) => ({
  description: `\`Invalid JSON\`, \`Invalid payload\` (a key other than the four, a missing key, a wrong type or colour) or \`${absentAnswer}\` (no JSON object)`,
  schema: errorSchema,
});

export const broadcastRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'POST',
    path: collectionPath,
    right: 'broadcast:write',
    summary: 'Create a broadcast message',
    tags,
    errors: absentBodyErrors(nothingToCreate),
    requestSchema: broadcastMessageInputSchema,
    responses: { 200: { description: 'The generated id', schema: createdSchema }, 400: invalidBody(nothingToCreate) },
    preValidation: objectBody(nothingToCreate),
    handler: async (ctx, { body }) => ({ _id: await service(ctx).create(body) }),
  }),
  {
    method: 'GET',
    path: collectionPath,
    right: 'broadcast:read',
    summary: 'List broadcast messages',
    tags,
    responses: { 200: { description: 'Every message, by start then id', schema: broadcastMessageListSchema } },
    handler: (ctx) => service(ctx).list(),
  },
  // Declared before `/:id` so that it wins over a message id `active`, as in the original.
  {
    method: 'GET',
    path: `${collectionPath}/active`,
    right: 'broadcast:read',
    summary: 'List the broadcast messages to display now',
    description: 'Messages with `start <= now <= end`, in epoch seconds.',
    tags,
    responses: { 200: { description: 'The active messages, by start then id', schema: broadcastMessageListSchema } },
    handler: (ctx) => service(ctx).active(),
  },
  {
    method: 'GET',
    path: itemPath,
    right: 'broadcast:read',
    summary: 'Get a broadcast message',
    tags,
    responses: {
      200: { description: 'The message', schema: broadcastMessageSchema },
      404: { description: '`No message found with ID <id>`', schema: errorSchema },
    },
    handler: async (ctx) => {
      const id = pathParam(ctx, 'id');
      const message = await service(ctx).get(id);
      if (!message) throw new HttpError(404, `No message found with ID ${id}`);
      return message;
    },
  },
  defineRoute({
    method: 'PUT',
    path: itemPath,
    right: 'broadcast:write',
    summary: 'Replace a broadcast message',
    description: 'Full replacement. An unknown id changes nothing and gets the same answer.',
    tags,
    errors: absentBodyErrors(nothingToUpdate),
    requestSchema: broadcastMessageInputSchema,
    responses: { 200: { description: 'An empty object', schema: updatedSchema }, 400: invalidBody(nothingToUpdate) },
    preValidation: objectBody(nothingToUpdate),
    handler: async (ctx, { body }) => {
      await service(ctx).replace(pathParam(ctx, 'id'), body);
      return {};
    },
  }),
  {
    method: 'DELETE',
    path: itemPath,
    right: 'broadcast:write',
    summary: 'Delete a broadcast message',
    description: 'Answers `{status: true}` whether or not the message existed.',
    tags,
    responses: { 200: { description: '`{status: true}`', schema: deletedSchema } },
    handler: async (ctx) => {
      await service(ctx).delete(pathParam(ctx, 'id'));
      return { status: true };
    },
  },
];
