import { object, string, type InferType } from 'yup';
import { HttpError, kernelRefs, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { durationWithUnitSchema, durationWithUnitSeconds, idField, nameField, textField, validate } from '@vigie/input';
import { defineBulkRoute, requireBulkItemId } from '@vigie/feature-kit';
import { entityReaderRef } from '@vigie/context-graph';
import { pbehaviorErrors } from './errors.js';
import { PbehaviorCreation } from './pbehavior-creation.js';
import { checkedCreation, maxTimestamp, pbehaviorBodySchema, pbehaviorCreationSchema, updateBody } from './pbehavior-input.js';
import { unknownIdMessage, PbehaviorService } from './pbehavior-service.js';

const tags = ['pbehaviors'];
const service = (ctx: VigieContext) => ctx.state.scope.resolve(PbehaviorService);
const user = (ctx: VigieContext) => ctx.state.user?.name ?? '';

/** One pbehavior for one entity, from now: "maintenance from this alarm". */
export const entityPbehaviorSchema = object({
  entity: idField(string().typeError('The entity must be a string')).required('The entity is required'),
  name: idField(string().typeError('The name must be a string'), 'The name must be at most ${max} characters long').required('The name is required'),
  type: nameField(string().typeError('The type must be a string')).meta({ jsonSchema: { description: 'The pbehavior `type_` (e.g. `maintenance`, `pause`); `generic` when absent' } }),
  reason: textField(string().typeError('The reason must be a string')),
  comment: textField(string().typeError('The comment must be a string')).meta({ jsonSchema: { description: 'Kept as the pbehavior\'s first comment, by the user' } }),
  duration: durationWithUnitSchema('duration', maxTimestamp).meta({ jsonSchema: { description: 'How long from now; until removed when absent' } }),
})
  .typeError('Each item must be a JSON object')
  .noUnknown('Unexpected fields: ${unknown}');

type EntityPbehaviorItem = InferType<typeof entityPbehaviorSchema>;

/** A bulk item's answer when it names no `_id`, worded as the single route's resource words it. */
const missingIdMessage = 'The _id is required';

/** `POST/PUT/DELETE /api/v2/bulk/pbehaviors` and `POST /api/v2/bulk/entity-pbehaviors`. */
export const bulkPbehaviorRoutes: RouteDefinition[] = [
  defineBulkRoute({
    method: 'POST',
    path: '/api/v2/bulk/pbehaviors',
    summary: 'Create pbehaviors',
    description: 'Each item is the body of `POST /api/v2/pbehavior`; its result `id` is the new pbehavior id.',
    tags,
    right: 'pbehaviors:write',
    itemSchema: pbehaviorCreationSchema,
    wording: pbehaviorErrors,
    work: async (ctx, item) => ({ id: await service(ctx).create(checkedCreation(item), { user: user(ctx), replaceExpired: false }) }),
  }),
  defineBulkRoute({
    method: 'PUT',
    path: '/api/v2/bulk/pbehaviors',
    summary: 'Update pbehaviors',
    description: 'Each item is the body of `PUT /api/v2/pbehavior/<_id>`, the pbehavior named by its `_id`.',
    tags,
    right: 'pbehaviors:write',
    itemSchema: pbehaviorBodySchema,
    wording: pbehaviorErrors,
    work: async (ctx, item) => {
      const id = requireBulkItemId(item, missingIdMessage);
      // As the single route: an unknown id is answered before the body is looked at.
      if (!(await service(ctx).exists(id))) throw new HttpError(400, unknownIdMessage);
      const { _id: _same, ...fields } = item as Record<string, unknown>;
      await service(ctx).update(id, validate(pbehaviorBodySchema, updateBody(fields), { strict: true }));
    },
  }),
  defineBulkRoute({
    method: 'DELETE',
    path: '/api/v2/bulk/pbehaviors',
    summary: 'Delete pbehaviors',
    description: 'Each item is `{_id}`; an unknown id is a 404 item (the single route answers it with `deletedCount` 0).',
    tags,
    right: 'pbehaviors:write',
    itemSchema: object({ _id: string().required() }),
    wording: pbehaviorErrors,
    work: async (ctx, item) => {
      const id = requireBulkItemId(item, missingIdMessage);
      if ((await service(ctx).delete(id)).deletedCount === 0) throw new HttpError(404, unknownIdMessage);
    },
  }),
  defineBulkRoute({
    method: 'POST',
    path: '/api/v2/bulk/entity-pbehaviors',
    summary: 'Put entities under a pbehavior from now (maintenance from an alarm)',
    description:
      'Each item creates one pbehavior whose filter selects its `entity`, starting now and lasting `duration` (until removed ' +
      'when absent), authored by the user, with `comment` as its first comment; its result `id` is the new pbehavior id, ' +
      'its status 404 for an unknown entity.',
    tags,
    right: 'pbehaviors:write',
    itemSchema: entityPbehaviorSchema,
    wording: pbehaviorErrors,
    work: async (ctx, item) => {
      const spec: EntityPbehaviorItem = validate(entityPbehaviorSchema, item, { strict: true });
      if (!(await ctx.state.scope.resolve(entityReaderRef).findOne({ _id: spec.entity }))) throw new HttpError(404, `No entity with id ${spec.entity}`);
      const now = ctx.state.scope.resolve(kernelRefs.clock).nowSec();
      const author = user(ctx);
      const id = await ctx.state.scope.resolve(PbehaviorCreation).forEntity(spec.entity, {
        name: spec.name,
        author,
        tstart: now,
        tstop: spec.duration ? Math.min(maxTimestamp, now + durationWithUnitSeconds(spec.duration as { value: number; unit: string })) : maxTimestamp,
        ...(spec.type ? { type: spec.type } : {}),
        ...(spec.reason !== undefined ? { reason: spec.reason } : {}),
        ...(spec.comment ? { comments: [{ author, message: spec.comment }] } : {}),
      });
      return { id };
    },
  }),
];
