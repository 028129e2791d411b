import { boolean, number, object, string, type AnyObject, type ObjectSchema, type Schema } from 'yup';
import { durationWithUnitSchema, idField, inputBounds, type DurationWithUnit } from '@vigie/input';

/** The operations people apply to an alarm by its id (`PUT /api/v2/alarms/<id>/<action>`), as event types. */
export const alarmActions = ['ack', 'ackremove', 'snooze', 'unsnooze', 'cancel', 'uncancel', 'changestate', 'assocticket', 'comment', 'done'] as const;
export type AlarmAction = (typeof alarmActions)[number];

/** The longest snooze: a year (a longer one is a pbehavior's job). */
const maxSnoozeSeconds = 366 * 86400;

const bounded = (name: string) => string().typeError(`${name} must be a string`).max(inputBounds.idLength, `${name} must be at most ${inputBounds.idLength} characters`);

const comment = bounded('comment').meta({ jsonSchema: { description: 'The step message (at most 255 characters)' } });

const durationSchema = durationWithUnitSchema('duration', maxSnoozeSeconds);

/** Each action's body; every action takes `comment`. */
const bodies: Record<AlarmAction, ObjectSchema<AnyObject>> = {
  ack: object({ comment, ack_resources: boolean().typeError('ack_resources must be true or false').meta({ jsonSchema: { description: 'On a component alarm: also acknowledge its resources\' open alarms' } }) }),
  ackremove: object({ comment }),
  snooze: object({ comment, duration: durationSchema.required('duration is required') }),
  unsnooze: object({ comment }),
  cancel: object({ comment }),
  uncancel: object({ comment }),
  changestate: object({
    comment,
    state: number().typeError('state must be an integer from 0 to 3').required('state is required').integer('state must be an integer from 0 to 3').min(0, 'state must be an integer from 0 to 3').max(3, 'state must be an integer from 0 to 3'),
  }),
  assocticket: object({
    comment,
    ticket: bounded('ticket').required('ticket is required').min(1, 'ticket must not be empty'),
    url: bounded('url'),
    system_name: bounded('system_name'),
  }),
  comment: object({ comment: comment.required('comment is required').min(1, 'comment must not be empty') }),
  done: object({ comment }),
};

/** The body of `PUT /api/v2/alarms/<id>/<action>`; an absent body is an empty one (the route reads it so). */
export function actionBodySchema(action: AlarmAction): Schema<AnyObject | undefined> {
  return bodies[action].typeError('the body must be a JSON object').noUnknown('the following keys are invalid: ${unknown}');
}

/** One item of `PUT /api/v2/bulk/alarms/<action>`: the alarm's `_id` and the action's body. */
export function bulkActionItemSchema(action: AlarmAction): ObjectSchema<AnyObject> {
  return bodies[action]
    .shape({ _id: idField(string()).typeError('_id must be a string').required('_id is required') })
    .typeError('each item must be a JSON object')
    .noUnknown('the following keys are invalid: ${unknown}');
}

/** What any action body may hold once validated. */
export interface ActionBody {
  comment?: string;
  ack_resources?: boolean;
  duration?: DurationWithUnit;
  state?: number;
  ticket?: string;
  url?: string;
  system_name?: string;
}
