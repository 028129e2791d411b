import { array, boolean, object, string } from 'yup';
import { previewAlarmSchema, previewAnswerSchema, previewRoute } from '@vigie/rule-schemas';
import { ErrorCodes, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { DeliveryService } from './delivery-service.js';
import { databaseErrorText, storeFailure } from './errors.js';
import { deliveryPageSchema, deliveryQuerySchema, deliverySchema, maxDeliveryPage, webhookInputSchema, webhookSchema } from './schemas.js';
import { WebhookService } from './webhook-service.js';

const tags = ['webhooks'];
const collectionPath = '/api/v2/webhook';
// Ids may contain `/` and spaces (REFERENCE §3.5, #2452).
const webhookPath = '/api/v2/webhook/*id';

const service = (ctx: VigieContext) => ctx.state.scope.resolve(WebhookService);
const author = (ctx: VigieContext) => ctx.state.user?.name ?? '';

const notFound = { description: 'No webhook found with ID <id>' };

const createRoute = defineRoute({
  method: 'POST',
  path: collectionPath,
  right: 'webhooks:write',
  summary: 'Create a webhook',
  description: 'request.url, request.payload and request.headers values are templates, parsed at save time.',
  tags,
  body: { required: true, otherMedia: 'absent' },
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
  handler: (ctx, { body }) => service(ctx).create(body, author(ctx)),
});

export const webhookRoutes: RouteDefinition[] = [
  createRoute,
  previewRoute({
    create: createRoute,
    path: `${collectionPath}/preview`,
    resource: 'a webhook',
    description:
      'Lists the open alarms the webhook selects (entity and alarm patterns; those under an active pbehavior are left out with ' +
      '`disable_if_active_pbehavior`): its `triggers` (and event patterns) send it for them. A disabled webhook sends nothing (`enabled`). ' +
      '`problem` says why it would be skipped.',
    answer: previewAnswerSchema(previewAlarmSchema, { triggers: array(string().required()).required(), enabled: boolean().required(), problem: string() }),
    handler: (ctx, body, limit) => ctx.state.scope.resolve(DeliveryService).preview(service(ctx).draft(body, author(ctx)), limit),
  }),
  {
    method: 'GET',
    path: collectionPath,
    right: 'webhooks:read',
    summary: 'List webhooks',
    tags,
    errors: storeFailure(databaseErrorText.list),
    responses: { 200: { description: 'Every webhook by _id, without request.auth', schema: array(webhookSchema) } },
    handler: (ctx) => service(ctx).list(),
  },
  {
    method: 'GET',
    path: webhookPath,
    right: 'webhooks:read',
    summary: 'Get a webhook',
    tags,
    errors: storeFailure(databaseErrorText.read),
    responses: { 200: { description: 'The webhook, without request.auth', schema: webhookSchema }, 404: notFound },
    handler: (ctx) => service(ctx).get(pathParam(ctx, 'id')),
  },
  defineRoute({
    method: 'PUT',
    path: webhookPath,
    right: 'webhooks:write',
    summary: 'Replace a webhook',
    description:
      'Full replacement, except credentials: request.auth left out keeps the stored ones, null removes them, and a ' +
      'password left out keeps the stored password.',
    tags,
    body: { required: true, otherMedia: 'absent' },
    errors: { [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'Nothing to update' }), ...storeFailure(databaseErrorText.update) },
    requestSchema: webhookInputSchema,
    responses: {
      200: { description: 'An empty object', schema: object({}) },
      400: { description: 'Invalid JSON, an invalid webhook, a body _id other than the path id, or a database error' },
      404: notFound,
    },
    handler: (ctx, { body }) => service(ctx).update(pathParam(ctx, 'id'), body, author(ctx)),
  }),
  {
    method: 'DELETE',
    path: webhookPath,
    right: 'webhooks:write',
    summary: 'Delete a webhook',
    tags,
    errors: storeFailure(databaseErrorText.read),
    responses: { 200: { description: 'status is true, also when no webhook had this id', schema: object({ status: boolean().required() }) } },
    handler: (ctx) => service(ctx).delete(pathParam(ctx, 'id'), author(ctx)),
  },
];

const deliveries = (ctx: VigieContext) => ctx.state.scope.resolve(DeliveryService);
const deliveryTags = ['webhook deliveries'];
/** Query and path problems are worded as they are, not as an invalid webhook. */
const plainValidation = { [ErrorCodes.Validation]: (e: { detail: string }) => ({ status: 400, description: e.detail }) };

export const deliveryRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v2/webhook-deliveries',
    right: 'webhooks:read',
    summary: 'List webhook deliveries',
    description:
      'Newest first. `webhook`, `alarm` and `status` (pending, succeeded, failed, skipped) filter; `skip` and `limit` ' +
      `(1 to ${maxDeliveryPage}, default 50) paginate. Each delivery lists every attempt with its time, answer status and error. ` +
      'Credentials never appear: request.auth is not part of a delivery.',
    tags: deliveryTags,
    querySchema: deliveryQuerySchema,
    queryOptions: { singleValued: true },
    errors: plainValidation,
    responses: {
      200: { description: '`{total_count, count, data}`', schema: deliveryPageSchema },
      400: { description: 'An invalid query value' },
    },
    handler: (ctx, { query }) => deliveries(ctx).list(query),
  }),
  {
    method: 'GET',
    path: '/api/v2/webhook-deliveries/:id',
    right: 'webhooks:read',
    summary: 'Get a webhook delivery',
    tags: deliveryTags,
    responses: { 200: { description: 'The delivery', schema: deliverySchema }, 404: { description: 'No webhook delivery with id <id>' } },
    handler: (ctx) => deliveries(ctx).get(pathParam(ctx, 'id')),
  },
  {
    method: 'POST',
    path: '/api/v2/webhook-deliveries/:id/replay',
    right: 'webhooks:write',
    summary: 'Replay a failed webhook delivery',
    description:
      'Sends the delivery again as it was rendered, with the same Idempotency-Key, granting 1 + retry.count more attempts ' +
      '(the webhook\'s current retry settings and credentials). Only a failed delivery can be replayed.',
    tags: deliveryTags,
    body: false,
    responses: {
      200: { description: 'The delivery, pending again', schema: deliverySchema },
      404: { description: 'No webhook delivery with id <id>' },
      409: { description: 'The delivery is not failed (pending, succeeded or skipped)' },
    },
    handler: (ctx) => deliveries(ctx).replay(pathParam(ctx, 'id'), author(ctx)),
  },
];
