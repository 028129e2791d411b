import { array, boolean, mixed, number, object, string } from 'yup';
import { pbehaviorOutputSchema } from '@vigie/pbehaviors';

export const watchersQuerySchema = object({
  limit: string(),
  start: string(),
  orderby: string().max(256, 'orderby must be at most 256 characters long'),
  direction: string(),
});

/**
 * An alarm step; `val` is a state or status (integer), a snooze end (epoch seconds) or a ticket (string), and null for
 * a step without one (an ack).
 */
const stepSchema = object({
  _t: string(),
  t: number(),
  a: string(),
  m: string(),
  val: mixed().nullable().meta({ jsonSchema: { type: ['integer', 'string', 'null'] } }),
  role: string(),
  initiator: string(),
}).default(undefined);
const infosSchema = object().meta({ jsonSchema: { additionalProperties: { type: 'object', properties: { description: {}, value: {} } } } });
const weatherPbehaviorsSchema = array(pbehaviorOutputSchema.omit(['eids']));
const tileColors = ['pause', 'ok', 'minor', 'major', 'critical'];
const tileIcons = ['pause', 'maintenance', 'unmonitored', 'ok', 'minor', 'major', 'critical'];

/** A watcher tile; the alarm fields are absent when the watcher has no open alarm. */
export const watcherEntrySchema = object({
  entity_id: string(),
  display_name: string(),
  mfilter: string(),
  infos: infosSchema,
  watcher_pbehavior: weatherPbehaviorsSchema,
  automatic_action_timer: number().nullable(),
  state: stepSchema,
  status: stepSchema.nullable(),
  snooze: stepSchema.nullable(),
  ack: stepSchema.nullable(),
  connector: string().nullable(),
  connector_name: string().nullable(),
  component: string().nullable(),
  resource: string().nullable(),
  last_update_date: number().nullable(),
  isActionRequired: boolean(),
  isAllEntitiesPaused: boolean(),
  isWatcherPaused: boolean(),
  tileColor: string().oneOf(tileColors),
  tileIcon: string().oneOf(tileIcons),
  tileSecondaryIcon: string().oneOf(['pause', 'maintenance', 'unmonitored']).nullable(),
});

/** A dependency of a watcher; the alarm fields are absent when it has no open alarm. */
export const dependencyEntrySchema = object({
  entity_id: string(),
  name: string(),
  source_type: string(),
  infos: infosSchema,
  state: stepSchema,
  status: stepSchema.nullable(),
  snooze: stepSchema.nullable(),
  ack: stepSchema.nullable(),
  ticket: stepSchema.shape({ data: object() }).nullable(),
  connector: string().nullable(),
  connector_name: string().nullable(),
  component: string().nullable(),
  resource: string().nullable(),
  last_update_date: number().nullable(),
  alarm_creation_date: number().nullable(),
  alarm_display_name: string().nullable(),
  automatic_action_timer: number().nullable(),
  pbehavior: weatherPbehaviorsSchema,
  linklist: array(object({ cat_name: string(), links: array() })),
});

/** One route serves both lists, told apart by its parameter: the entries hold the fields of either. */
export const weatherEntrySchema = watcherEntrySchema.concat(dependencyEntrySchema);

export const errorSchema = object({ name: string().required(), description: string().required() });
