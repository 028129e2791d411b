import { defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam, validate } from '@vigie/input';
import { defineBulkRoute } from '@vigie/feature-kit';
import { actionBodySchema, alarmActions, bulkActionItemSchema, type ActionBody, type AlarmAction } from './action-schemas.js';
import { AlarmActionService } from './alarm-actions.js';
import { alarmOutputSchema, errorSchema } from './schemas.js';

const tags = ['alarms'];
const service = (ctx: VigieContext) => ctx.state.scope.resolve(AlarmActionService);

/** The right of each action: acknowledging is a right of its own, the other actions change the alarm. */
const actionRight = (action: AlarmAction): string => (action === 'ack' || action === 'ackremove' ? 'alarms:ack' : 'alarms:write');

/** What each action does, for the OpenAPI document. */
const actionSummaries: Record<AlarmAction, string> = {
  ack: 'Acknowledge an alarm (`ack_resources: true` on a component alarm also acknowledges its resources)',
  ackremove: 'Remove the acknowledgement of an alarm',
  snooze: 'Snooze an alarm for `duration` `{value, unit}` (unit among s, m, h, d, w)',
  unsnooze: 'End the snooze of an alarm',
  cancel: 'Cancel an alarm',
  uncancel: 'Undo the cancellation of an alarm',
  changestate: 'Set and lock the state of an alarm (`state` 0 to 3)',
  assocticket: 'Associate a ticket (`ticket`, `url`, `system_name`) with an alarm',
  comment: 'Comment an alarm',
  done: 'Mark an alarm done',
};

const stepsNote =
  'Applied as the event of that type for the alarm\'s entity (same steps, same triggers, author = the authenticated user), ' +
  'stored before the answer. `comment` (at most 255 characters) is the step message.';

/** `PUT /api/v2/alarms/<id>/<action>`, one route per action. */
export const alarmActionRoutes: RouteDefinition[] = alarmActions.map((action) =>
  defineRoute({
    method: 'PUT',
    path: `/api/v2/alarms/:id/${action}`,
    right: actionRight(action),
    summary: actionSummaries[action],
    description: stepsNote,
    tags,
    requestSchema: actionBodySchema(action),
    responses: {
      200: { description: 'The alarm as stored after the action, as `GET /api/v2/alarms/<id>` shows it', schema: alarmOutputSchema },
      400: { description: 'Invalid body (the field at fault named)', schema: errorSchema },
      404: { description: '`No alarm with id <id>`', schema: errorSchema },
      409: { description: '`Cannot <action> alarm <id>: <reason>`: the alarm is resolved, its entity disabled, or the action changes nothing', schema: errorSchema },
    },
    handler: (ctx, { body }) => service(ctx).apply(pathParam(ctx, 'id'), action, (body ?? {}) as ActionBody, ctx.state.user),
  }),
);

/** `PUT /api/v2/bulk/alarms/<action>`, one route per action. */
export const bulkAlarmActionRoutes: RouteDefinition[] = alarmActions.map((action) => {
  const itemSchema = bulkActionItemSchema(action);
  return defineBulkRoute({
    method: 'PUT',
    path: `/api/v2/bulk/alarms/${action}`,
    right: actionRight(action),
    summary: `${actionSummaries[action]}, for many alarms`,
    description: `Each item is \`{_id, …}\`: the alarm id and the body of \`PUT /api/v2/alarms/<id>/${action}\`. ${stepsNote} Item statuses: 200, 400, 404, 409 as the single route.`,
    tags,
    itemSchema,
    // Up to 16 items at a time: their writes share the store's group commits.
    concurrency: 16,
    work: async (ctx, item) => {
      const { _id: id, ...body } = validate(itemSchema, item, { strict: true }) as ActionBody & { _id: string };
      await service(ctx).apply(id, action, body, ctx.state.user);
    },
  });
});
