import { array, boolean, mixed, number, object, string, type InferType } from 'yup';
import { idField, listField, textField } from '@vigie/input';
import { isJsonObject } from '@vigie/json';

/** The tasks the alarm-filter engine knows (REFERENCE §4.6), run in the listed order. */
export const alarmFilterTasks = [
  'alerts.useraction.ack',
  'alerts.useraction.ackremove',
  'alerts.useraction.cancel',
  'alerts.useraction.comment',
  'alerts.useraction.uncancel',
  'alerts.useraction.declareticket',
  'alerts.useraction.done',
  'alerts.useraction.assocticket',
  'alerts.useraction.changestate',
  'alerts.useraction.keepstate',
  'alerts.useraction.snooze',
  'alerts.systemaction.state_increase',
  'alerts.systemaction.state_decrease',
  'alerts.systemaction.status_increase',
  'alerts.systemaction.status_decrease',
] as const;

/** A query as a client sends it: an object or its JSON text. */
export type AlarmQueryInput = string | Record<string, unknown>;

/** A MongoDB query on alarm documents (`periodical_alarm`), sent as an object or as its JSON text. */
function alarmQuerySchema(description: string) {
  return mixed<AlarmQueryInput>((value): value is AlarmQueryInput => typeof value === 'string' || isJsonObject(value))
    .typeError('${path} must be a query object or its JSON text')
    .meta({ jsonSchema: { type: ['object', 'string'], description } });
}

const fields = {
  entity_filter: alarmQuerySchema('The alarms the action applies to: a MongoDB query on alarm documents, as an object or as JSON text'),
  condition: alarmQuerySchema('What an alarm must also match when the tasks run (may be empty): a MongoDB query on alarm documents'),
  tasks: listField(array(string().oneOf(alarmFilterTasks).required()))
    .min(1)
    .meta({ jsonSchema: { description: 'Tasks run in order on each matching alarm' } }),
  output_format: textField(string()).meta({ jsonSchema: { description: 'Output of the event the tasks build; `{old}` stands for the message of the alarm’s latest step' } }),
  limit: number()
    .integer()
    .min(0)
    .meta({ jsonSchema: { description: 'Seconds to wait after the alarm’s creation, then between two runs' } }),
  postpone_if_active_pbehavior: boolean().meta({ jsonSchema: { description: 'Wait `limit` after the end of the entity’s last pbehavior too; false by default' } }),
  repeat: number()
    .integer()
    .min(0)
    .meta({ jsonSchema: { description: 'How many times the tasks run on one alarm; 1 by default' } }),
};

/** POST body: the action without `_id` (a non-empty `_id` is used as the id). Unknown keys are ignored. */
export const alarmFilterCreateSchema = object({
  _id: idField(string())
    .nullable()
    .meta({ jsonSchema: { description: 'Generated (uuid4) when absent or empty' } }),
  ...fields,
  entity_filter: fields.entity_filter.required(),
  condition: fields.condition.required(),
  tasks: fields.tasks.required(),
  limit: fields.limit.required(),
});

/** What a client sends to create an action, once validated. */
export type AlarmFilterInput = InferType<typeof alarmFilterCreateSchema>;

/** PUT body: the keys to change; `_id`, when given, must be the id of the path. Unknown keys are ignored. */
export const alarmFilterUpdateSchema = object({ _id: idField(string()), ...fields });
export type AlarmFilterUpdateInput = InferType<typeof alarmFilterUpdateSchema>;

/** An action as the API shows it: `entity_filter` as JSON text, `condition` as an object (the spec's types). */
export const alarmFilterSchema = object({
  _id: string().required(),
  entity_filter: string()
    .required()
    .meta({ jsonSchema: { description: 'JSON text of a MongoDB query on alarm documents' } }),
  condition: object().required(),
  tasks: array(string().required()).required(),
  output_format: string(),
  limit: number().integer().required(),
  postpone_if_active_pbehavior: boolean().required(),
  repeat: number().integer().required(),
});

export type AlarmFilter = InferType<typeof alarmFilterSchema>;

export const alarmFilterListSchema = array(alarmFilterSchema).required();

export const deletedSchema = object({
  n: number().integer().required().meta({ jsonSchema: { description: 'How many actions were deleted (0 or 1)' } }),
  ok: number().required().meta({ jsonSchema: { description: 'Always 1' } }),
});

export const errorSchema = object({ name: string().defined(), description: string().defined() });
