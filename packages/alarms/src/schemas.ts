import { array, boolean, mixed, number, object, string } from 'yup';
import { isSafeFieldPath } from '@vigie/filter-safety';

export const maxAlarmPage = 10_000;
/** Fields the alarm list sorts on at most. */
export const maxSortKeys = 3;

/** The `sort` query's keys in order (`field:ASC|DESC`, comma-separated), or null when it is not such a list. */
export function parseSortKeys(text: string): { field: string; direction: 1 | -1 }[] | null {
  const keys = text.split(',').map((part) => {
    const [field = '', dir = ''] = part.split(':');
    const direction = dir.toUpperCase() === 'ASC' ? 1 : dir.toUpperCase() === 'DESC' ? -1 : 0;
    return direction !== 0 && isSafeFieldPath(field) ? { field, direction: direction as 1 | -1 } : null;
  });
  if (keys.length > maxSortKeys || keys.some((k) => k === null)) return null;
  const fields = keys.map((k) => k?.field);
  return new Set(fields).size === fields.length ? (keys as { field: string; direction: 1 | -1 }[]) : null;
}

/** Most steps a timeline page holds: one alarm's whole capped history. */
export const maxTimelinePage = 2000;

const flag = (name: string, fallback: boolean) =>
  boolean()
    .transform((value: unknown, original: unknown) => (typeof original === 'string' ? { true: true, false: false, '1': true, '0': false }[original.toLowerCase()] ?? original : value))
    .typeError(`${name} must be true or false`)
    .default(fallback);

const epoch = (name: string) => number().typeError(`${name} must be a number of epoch seconds`).min(0, `${name} must be a number of epoch seconds`);

/** Query of `GET /alerts/get-alarms`; values arrive as strings and are cast. */
export const alarmListQuerySchema = object({
  tstart: epoch('tstart').meta({ jsonSchema: { description: 'Alarms still open at or resolved after this time (epoch seconds)' } }),
  tstop: epoch('tstop').meta({ jsonSchema: { description: 'Alarms created at or before this time (epoch seconds)' } }),
  opened: flag('opened', true).meta({ jsonSchema: { description: 'Include open alarms (default true)' } }),
  resolved: flag('resolved', false).meta({ jsonSchema: { description: 'Include resolved alarms (default false)' } }),
  filter: string().typeError('filter must be one JSON object').meta({
    jsonSchema: { description: 'A MongoDB-style filter on alarm fields as JSON text, e.g. {"v.state.val": 3}; safe operators only' },
  }),
  search: string().typeError('search must be a string').max(256, 'search must be at most 256 characters'),
  sort_key: string()
    .typeError('sort_key must be a field path')
    .max(600, 'sort_key must be at most 600 characters')
    .test('field-paths', `sort_key must be a field path, or up to ${maxSortKeys} comma-separated ones, such as v.state.val,t`, (value) => {
      if (value === undefined) return true;
      const keys = value.split(',');
      return keys.length <= maxSortKeys && keys.every((key) => key.length <= 200 && isSafeFieldPath(key));
    })
    .default('t')
    .meta({ jsonSchema: { description: `Up to ${maxSortKeys} comma-separated field paths, e.g. \`v.state.val,v.last_update_date\`` } }),
  sort_dir: string()
    .typeError('sort_dir must be ASC or DESC')
    .transform((value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value))
    .matches(/^(ASC|DESC)(,(ASC|DESC)){0,2}$/, 'sort_dir must be ASC or DESC, or one of them per sort_key field')
    .default('DESC')
    .meta({ jsonSchema: { description: 'ASC or DESC for every key, or one per `sort_key` field (comma-separated)' } }),
  sort: string()
    .typeError('sort must be a list of field:ASC|DESC pairs')
    .max(700, 'sort must be at most 700 characters')
    .test('sort-keys', `sort must be 1 to ${maxSortKeys} comma-separated field:ASC|DESC pairs such as v.state.val:DESC,t:ASC`, (value) => value === undefined || parseSortKeys(value) !== null)
    .meta({
      jsonSchema: { description: `Up to ${maxSortKeys} sort keys, \`field:ASC|DESC\` comma-separated (e.g. \`v.state.val:DESC,v.component:ASC\`); replaces sort_key and sort_dir when given` },
    }),
  skip: number().typeError('skip must be an integer').integer('skip must be an integer').min(0, 'skip must not be negative'),
  page: number()
    .typeError('page must be an integer')
    .integer('page must be an integer')
    .min(1, 'page must be at least 1')
    .max(1_000_000, 'page must be at most 1000000')
    .meta({ jsonSchema: { description: 'The 1-based page of `limit` alarms (instead of `skip`)' } }),
  limit: number()
    .typeError('limit must be an integer')
    .integer('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(maxAlarmPage, `limit must be at most ${maxAlarmPage}`)
    .default(50),
  with_steps: flag('with_steps', false).meta({ jsonSchema: { description: 'Include `v.steps` (default false)' } }),
});

/** Query of `GET /api/v2/alarm-counters`: the list's filter. */
export const alarmCountersQuerySchema = alarmListQuerySchema.pick(['tstart', 'tstop', 'opened', 'resolved', 'filter', 'search']);

export const alarmCountersSchema = object({
  total: number().integer().required().meta({ jsonSchema: { description: 'Alarms matching the filter' } }),
  by_state: object({ '0': number().integer().required(), '1': number().integer().required(), '2': number().integer().required(), '3': number().integer().required() })
    .required()
    .meta({ jsonSchema: { description: 'Alarms per state: 0 ok, 1 minor, 2 major, 3 critical' } }),
  acknowledged: number().integer().required(),
  unacknowledged: number().integer().required(),
  snoozed: number().integer().required(),
  under_pbehavior: number().integer().required().meta({ jsonSchema: { description: 'Alarms whose entity is under a pbehavior (`v.pbehavior_info`)' } }),
});

export const alarmOutputSchema = object({
  _id: string().required(),
  t: number().integer().required().meta({ jsonSchema: { description: 'Creation time, epoch seconds' } }),
  d: string().required().meta({ jsonSchema: { description: 'Entity id' } }),
  v: mixed().required().meta({ jsonSchema: { type: 'object', description: 'The alarm value (REFERENCE §6.1): state, status, steps, ack, …' } }),
  entity: mixed().nullable().meta({ jsonSchema: { type: 'object', description: 'The entity of the alarm, or null' } }),
});

export const alarmListSchema = object({
  total: number().integer().required().meta({ jsonSchema: { description: 'Number of entries in data (always 1), as the original' } }),
  data: array(
    object({
      alarms: array(alarmOutputSchema).required(),
      total: number().integer().required().meta({ jsonSchema: { description: 'Alarms matching the query' } }),
      first: number().integer().required().meta({ jsonSchema: { description: '1-based rank of the first alarm of the page' } }),
      last: number().integer().required().meta({ jsonSchema: { description: 'Rank of the last alarm of the page' } }),
    }),
  ).required(),
  success: boolean().required(),
});

export const errorSchema = object({ name: string().defined(), description: string().defined() });

/** Query of `GET /api/v2/alarms/<id>/steps`. */
export const timelineQuerySchema = object({
  page: number().typeError('page must be an integer').integer('page must be an integer').min(1, 'page must be at least 1').max(1_000_000, 'page must be at most 1000000').default(1),
  limit: number()
    .typeError('limit must be an integer')
    .integer('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(maxTimelinePage, `limit must be at most ${maxTimelinePage}`)
    .default(50),
  type: string()
    .typeError('type must be a comma-separated list of step types')
    .max(1000, 'type must be at most 1000 characters')
    .meta({ jsonSchema: { description: 'Keep only these step types, comma-separated (e.g. `ack,comment,snooze`)' } }),
  sort: string()
    .typeError('sort must be asc or desc')
    .transform((value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value))
    .oneOf(['asc', 'desc'], 'sort must be asc or desc')
    .default('asc')
    .meta({ jsonSchema: { description: '`asc` oldest first (default), `desc` newest first' } }),
  with_children: flag('with_children', false).meta({ jsonSchema: { description: 'With a meta-alarm\'s children\'s steps, each naming its `alarm_id` and `entity_id`' } }),
});

const stepSchema = object({
  _t: string().required(),
  t: number().required(),
  a: string().defined(),
  m: string().defined(),
}).meta({ jsonSchema: { description: 'A step `{_t, t, a, m, val?, role?, initiator?, data?}`; `alarm_id`, `entity_id` with children' } });

export const timelineSchema = object({
  steps: array(stepSchema).required(),
  total: number().integer().required().meta({ jsonSchema: { description: 'Steps matching the query, all pages' } }),
  page: number().integer().required(),
  limit: number().integer().required(),
  folded_steps: number()
    .integer()
    .required()
    .meta({ jsonSchema: { description: 'Steps the 2,000-step cap dropped between the first step and the oldest kept one (0: the history is whole)' } }),
});
