import { array, boolean, number, object, string } from 'yup';
import { HttpError } from '@vigie/kernel';
import { sortableFields, type SortableField, type SortKey } from './pbehavior-service.js';

export { pbehaviorBodySchema, pbehaviorCreationSchema } from './pbehavior-input.js';

const flagValues = ['1', '0', 'true', 'false', 'True', 'False'];

/** A yes/no query parameter in the forms the original accepted. */
const flag = (name: string) => string().oneOf(flagValues, `${name} must be true or false (or 1, 0)`);

export function flagValue(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === '1' || value.toLowerCase() === 'true';
}

const count = (name: string) => string().matches(/^[0-9]{1,9}$/, `${name} must be a non-negative integer`);

/** The longest window `GET /api/v2/pbehavior-timespans` expands. */
export const maxCalendarDays = 400;
/** The most timespans one page of `GET /api/v2/pbehavior-timespans` holds. */
export const maxCalendarLimit = 10_000;

const epochSeconds = (name: string) =>
  number().typeError(`${name} must be a time in epoch seconds`).integer(`${name} must be a time in epoch seconds`).min(0, `${name} must be a time in epoch seconds`).max(253402297199, `${name} is too far in the future`);

export const timespansQuerySchema = object({
  from: epochSeconds('from').required('from is required'),
  to: epochSeconds('to')
    .required('to is required')
    .test('window', `to must be after from, at most ${maxCalendarDays} days later`, function (to) {
      const from = (this.parent as { from?: number }).from;
      return from === undefined || (to > from && to - from <= maxCalendarDays * 86400);
    }),
  entity: string().max(1024, 'entity must be at most 1024 characters long'),
  filter: string().max(65536, 'filter must be at most 65536 characters long'),
  timezone: string().max(64, 'timezone must be at most 64 characters long'),
  limit: number()
    .typeError('limit must be an integer from 1 to ' + maxCalendarLimit)
    .integer('limit must be an integer from 1 to ' + maxCalendarLimit)
    .min(1, 'limit must be an integer from 1 to ' + maxCalendarLimit)
    .max(maxCalendarLimit, 'limit must be an integer from 1 to ' + maxCalendarLimit),
  page: number().typeError('page must be an integer from 1').integer('page must be an integer from 1').min(1, 'page must be an integer from 1').max(1_000_000, 'page is too large'),
});

const timespanSchema = object({
  pbehavior: object({ _id: string().required(), name: string().required(), type_: string().required(), reason: string().defined() }).required(),
  start: number().integer().required(),
  end: number().integer().required(),
  start_local: string().required(),
  end_local: string().required(),
  active: boolean().required(),
});

export const calendarSchema = object({
  from: number().integer().required(),
  to: number().integer().required(),
  timezone: string().required(),
  count: number().integer().required(),
  page: number().integer().required(),
  limit: number().integer().required(),
  timespans: array(timespanSchema).required(),
});

export const createQuerySchema = object({ replace_expired: flag('replace_expired') });
export const listQuerySchema = object({ current_active_pbh: flag('current_active_pbh') });
export const byEntityQuerySchema = object({ enabled: flag('enabled') });
export const readQuerySchema = object({
  _id: string(),
  search: string().max(256, 'search must be at most 256 characters long'),
  limit: count('limit'),
  skip: count('skip'),
  current_active_pbh: flag('current_active_pbh'),
  sort: string().max(2000, 'sort is too long'),
});

const commentSchema = object({ _id: string().required(), author: string().required(), message: string().required() });

export const pbehaviorOutputSchema = object({
  _id: string().required(),
  name: string().required(),
  author: string().required(),
  filter: string().required(),
  tstart: number().integer().required(),
  tstop: number().integer().required(),
  rrule: string().nullable().defined(),
  enabled: boolean().required(),
  comments: array(commentSchema).required(),
  connector: string().required(),
  connector_name: string().required(),
  type_: string().required(),
  // Empty unless given: `defined`, as yup's `required` refuses "".
  reason: string().defined(),
  timezone: string().required(),
  exdate: array(number().integer().required()).required(),
  eids: array(string().required()),
  isActive: boolean().required(),
  is_currently_active: boolean().required(),
});

export const updateOutputSchema = object({
  name: string().required(),
  author: string().required(),
  reason: string().defined(),
  filter: string().required(),
  type_: string().required(),
  exdate: array(number().integer().required()).required(),
  tstart: number().integer().required(),
  tstop: number().integer().required(),
});

export const deleteOutputSchema = object({ deletedCount: number().integer().required(), acknowledged: boolean().required() });

export const readOutputSchema = object({
  total: number().integer().required(),
  data: array(object({ count: number().integer().required(), total_count: number().integer().required(), data: array(pbehaviorOutputSchema).required() })).required(),
  success: boolean().required(),
});

export const errorSchema = object({ name: string().required(), description: string().required() });

function sortKey(field: unknown, direction: unknown): SortKey {
  if (typeof field !== 'string' || !(sortableFields as readonly string[]).includes(field)) {
    throw new HttpError(400, `Cannot sort on ${JSON.stringify(field)}: the sortable fields are ${sortableFields.join(', ')}`);
  }
  const dir = direction === undefined ? 'ASC' : typeof direction === 'string' ? direction.toUpperCase() : '';
  if (dir !== 'ASC' && dir !== 'DESC') throw new HttpError(400, `The sort direction must be ASC or DESC, not ${JSON.stringify(direction)}`);
  return { field: field as SortableField, direction: dir === 'ASC' ? 1 : -1 };
}

/**
 * `/pbehavior/read`'s `sort`: JSON text holding a field name, `{property, direction}`, or a list of either (the
 * original's forms), or plain comma-separated field names.
 */
export function parseSort(text: string | undefined): SortKey[] {
  if (text === undefined || text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = text.split(',').map((name) => name.trim());
  }
  return (Array.isArray(value) ? value : [value]).map((item: unknown) => {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const { property, direction } = item as { property?: unknown; direction?: unknown };
      return sortKey(property, direction);
    }
    return sortKey(item, undefined);
  });
}
