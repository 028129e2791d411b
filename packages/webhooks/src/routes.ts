import { array, boolean, object, string } from 'yup';
import { ErrorCodes, pathParam, requestBody, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { databaseErrorText, storeFailure } from './errors.js';
import { webhookInputSchema, webhookSchema } from './schemas.js';
import type { WebhookService } from './webhook-service.js';

const tags = ['webhooks'];
const collectionPath = '/api/v2/webhook';
// Ids may contain `/` and spaces (REFERENCE §3.5, #2452).
const webhookPath = '/api/v2/webhook/*id';

const service = (ctx: VigieContext) => ctx.state.scope.resolve<WebhookService>('webhookService');
const author = (ctx: VigieContext) => ctx.state.user?.name ?? '';

const notFound = { description: 'No webhook found with ID <id>' };

export const webhookRoutes: RouteDefinition[] = [
  {
    method: 'POST',
    path: collectionPath,
    summary: 'Create a webhook',
    description: 'request.url, request.payload and request.headers values are templates, parsed at save time.',
    tags,
    body: { required: true },
    errors: {
      [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'Nothing to create' }),
      [ErrorCodes.DuplicateKey]: () => ({ status: 400, description: databaseErrorText.create }),
      ...storeFailure(databaseErrorText.create),
    },
    requestSchema: webhookInputSchema,
    responses: {
      200: { description: 'The id of the new webhook', schema: object({ _id: string().required() }) },
      400: { description: 'Invalid JSON, an invalid webhook, a duplicate id or a database error' },
    },
    handler: (ctx) => service(ctx).create(requestBody(ctx), author(ctx)),
  },
  {
    method: 'GET',
    path: collectionPath,
    summary: 'List webhooks',
    tags,
    errors: storeFailure(databaseErrorText.list),
    responses: { 200: { description: 'Every webhook by _id, without request.auth', schema: array(webhookSchema) } },
    handler: (ctx) => service(ctx).list(),
  },
  {
    method: 'GET',
    path: webhookPath,
    summary: 'Get a webhook',
    tags,
    errors: storeFailure(databaseErrorText.read),
    responses: { 200: { description: 'The webhook, without request.auth', schema: webhookSchema }, 404: notFound },
    handler: (ctx) => service(ctx).get(pathParam(ctx, 'id')),
  },
  {
    method: 'PUT',
    path: webhookPath,
    summary: 'Replace a webhook',
    description:
      'Full replacement, except credentials: request.auth left out keeps the stored ones, null removes them, and a ' +
      'password left out keeps the stored password.',
    tags,
    body: { required: true },
    errors: { [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'Nothing to update' }), ...storeFailure(databaseErrorText.update) },
    requestSchema: webhookInputSchema,
    responses: {
      200: { description: 'An empty object', schema: object({}) },
      400: { description: 'Invalid JSON, an invalid webhook, a body _id other than the path id, or a database error' },
      404: notFound,
    },
    handler: (ctx) => service(ctx).update(pathParam(ctx, 'id'), requestBody(ctx), author(ctx)),
  },
  {
    method: 'DELETE',
    path: webhookPath,
    summary: 'Delete a webhook',
    tags,
    errors: storeFailure(databaseErrorText.read),
    responses: { 200: { description: 'status is true, also when no webhook had this id', schema: object({ status: boolean().required() }) } },
    handler: (ctx) => service(ctx).delete(pathParam(ctx, 'id'), author(ctx)),
  },
];
