import { mixed, number, object, string } from 'yup';
import { ErrorCodes, defineRoute, type ErrorWording, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { validate, idField, pathParam, textField } from '@vigie/input';
import { defineBulkRoute } from '@vigie/feature-kit';
import { EntityAdministration } from './entity-administration.js';

const tags = ['entities'];
const admin = (ctx: VigieContext) => ctx.state.scope.resolve(EntityAdministration);

/** The kernel's answers in this API's words (the import's own wording is for its upload route). */
const entityErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Invalid JSON' }),
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'invalid entity: a JSON object is required' }),
  [ErrorCodes.BodyUnsupportedType]: () => ({ status: 400, description: 'invalid entity: a JSON object is required' }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: `invalid entity: ${e.detail}` }),
};

/**
 * An entity as an import element takes it (the import's checks apply to its fields: type, relations, infos…);
 * only the outer shape is the schema's.
 */
const entityBodySchema = object()
  .typeError('expected a JSON object')
  .required('expected a JSON object')
  .test('no-action', 'action and action_properties are not fields of an entity', (value) => value === undefined || (!('action' in value) && !('action_properties' in value)));
const entityCreateSchema = entityBodySchema.test('id', '_id must be a non-empty string', (value) => typeof (value as { _id?: unknown } | undefined)?._id === 'string');
const oneIdSchema = object({ _id: idField(string()).required('_id is required') }).required('a JSON object is required').noUnknown('unknown keys: ${unknown}');
const commentSchema = object({ message: textField(string()).required('message is required').min(1, 'message should not be empty') })
  .required('a JSON object is required')
  .noUnknown('unknown keys: ${unknown}');

const entitySchema = object({ _id: string().required(), name: string().required(), type: string().defined(), enabled: mixed().required() }).unknown(true);
const commentOutputSchema = object({ _id: string().required(), author: string().required(), message: string().required(), timestamp: number().required() });
const missing = { description: '`no entity with id <id>`' };
const invalid = { description: '`Invalid JSON` or `invalid entity: <the import\'s check that failed>`' };
const author = (ctx: VigieContext) => ctx.state.user?.name ?? '';

function toggleRoutes(enabled: boolean): RouteDefinition[] {
  const verb = enabled ? 'enable' : 'disable';
  return [
    defineRoute({
      method: 'POST',
      path: `/api/v2/entities/${verb}`,
      right: 'entities:write',
      summary: `${enabled ? 'Enable' : 'Disable'} an entity`,
      description: `Sets \`enabled\` and appends the time to \`${verb}_history\`, as an import's \`${verb}\` does.`,
      tags,
      errors: entityErrors,
      requestSchema: oneIdSchema,
      responses: { 200: { description: 'The entity', schema: entitySchema }, 400: invalid, 404: missing },
      handler: (ctx, { body }) => admin(ctx).toggle(body._id, enabled),
    }),
    defineBulkRoute({
      method: 'PUT',
      path: `/api/v2/bulk/entities/${verb}`,
      right: 'entities:write',
      summary: `${enabled ? 'Enable' : 'Disable'} entities`,
      tags,
      wording: entityErrors,
      itemSchema: oneIdSchema,
      work: async (ctx, item) => {
        await admin(ctx).toggle(validate(oneIdSchema, item)._id, enabled);
      },
    }),
  ];
}

export const entityRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v2/entities',
    right: 'entities:write',
    summary: 'Create an entity',
    description:
      'The body is an entity as an import `create` element takes it, checked and applied by the same rules: the entities named in `impact` and ' +
      '`depends` must exist and get the reciprocal link; `context-graph.entities-changed` is emitted (pbehavior eids, watcher dependencies follow).',
    tags,
    errors: entityErrors,
    requestSchema: entityCreateSchema,
    responses: { 200: { description: 'The entity', schema: entitySchema }, 400: invalid },
    handler: (ctx, { body }) => admin(ctx).create(body as never),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v2/entities/*id',
    right: 'entities:write',
    summary: 'Update an entity',
    description: 'The given fields replace the stored ones, as an import `update` does (relations given are replaced, reciprocally).',
    tags,
    errors: entityErrors,
    requestSchema: entityBodySchema,
    responses: { 200: { description: 'The entity', schema: entitySchema }, 400: invalid, 404: missing },
    handler: (ctx, { body }) => admin(ctx).update(pathParam(ctx, 'id'), body as never),
  }),
  {
    method: 'DELETE',
    path: '/api/v2/entities/*id',
    right: 'entities:write',
    summary: 'Delete an entity',
    description: 'The entities it was linked with forget it, as an import `delete` does.',
    tags,
    responses: { 200: { description: 'The deleted id', schema: object({ deleted: string().required() }) }, 404: missing },
    handler: (ctx) => admin(ctx).delete(pathParam(ctx, 'id')),
  },
  ...toggleRoutes(true),
  ...toggleRoutes(false),
  defineRoute({
    method: 'POST',
    path: '/api/v2/entity-comments/*id',
    right: 'entities:write',
    summary: 'Comment an entity',
    description: 'Appends `{_id, author, message, timestamp}` to the entity\'s `comments`; the author is the authenticated user.',
    tags,
    errors: entityErrors,
    requestSchema: commentSchema,
    responses: { 200: { description: 'The comment', schema: commentOutputSchema }, 400: invalid, 404: missing },
    handler: (ctx, { body }) => admin(ctx).comment(pathParam(ctx, 'id'), author(ctx), body.message),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v2/entity-comments/*id',
    right: 'entities:write',
    summary: 'Delete a comment of an entity',
    tags,
    querySchema: object({ comment: idField(string()).required('comment is required') }),
    queryOptions: { singleValued: true },
    errors: entityErrors,
    responses: { 200: { description: 'The deleted comment id', schema: object({ deleted: string().required() }) }, 400: invalid, 404: missing },
    handler: (ctx, { query }) => admin(ctx).deleteComment(pathParam(ctx, 'id'), query.comment),
  }),
];
