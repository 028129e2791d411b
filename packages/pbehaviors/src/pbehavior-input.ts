import { randomUUID } from 'node:crypto';
import { array, boolean, number, object, string, type InferType } from 'yup';
import { Query } from 'mingo';
import { assertSafeFilter } from '@vigie/filter-safety';
import { errorDetail, HttpError, type Filter } from '@vigie/kernel';
import { idField, listField, nameField, textField, validate } from '@vigie/input';
import type { PbehaviorComment, PbehaviorRecord } from './pbehavior.js';
import { RecurrenceError } from './recurrence.js';
import { Schedule } from './schedule.js';
import { TimeZone } from './time-zone.js';

export const requiredFieldsMessage = 'The fields name, filter, author, tstart, tstop are required.';

/** Greatest epoch second accepted (9999-12-31T23:59:59Z, the original's `MaxPythonTimestamp`). */
export const maxTimestamp = 253402297199;

const timestamp = (field: string) =>
  number()
    .typeError(`The ${field} must be an integer (epoch seconds)`)
    .integer(`The ${field} must be an integer (epoch seconds)`)
    .min(0, `The ${field} must be between 0 and ${maxTimestamp}`)
    .max(maxTimestamp, `The ${field} must be between 0 and ${maxTimestamp}`);

const text = (field: string) => string().typeError(`The ${field} must be a string`);
const label = (field: string) => nameField(text(field), `The ${field} must be at most \${max} characters long`);

/** A pbehavior body, in the spec's form (aliases already resolved); every field optional here. */
export const pbehaviorBodySchema = object({
  _id: idField(text('_id').min(1, 'The _id must not be empty'), 'The _id must be at most ${max} characters long'),
  name: idField(text('name'), 'The name must be at most ${max} characters long'),
  author: label('author'),
  filter: object().typeError('The filter must be a JSON object (a query on entities)'),
  tstart: timestamp('tstart'),
  tstop: timestamp('tstop'),
  rrule: label('rrule').nullable(),
  enabled: boolean().typeError('The enabled field must be a boolean'),
  comments: listField(
    array(
      object({
        author: label('comment author').required('Each comment needs an author and a message'),
        message: textField(text('comment message'), 'The comment message must be at most ${max} characters long').required('Each comment needs an author and a message'),
      })
        .noUnknown('A comment has only an author and a message')
        .typeError('Each comment must be an object with an author and a message'),
    ),
    undefined,
    'The comments must hold at most ${max} comments',
  ).typeError('The comments must be a list'),
  connector: label('connector'),
  connector_name: label('connector_name'),
  type_: label('type_'),
  reason: textField(text('reason'), 'The reason must be at most ${max} characters long'),
  timezone: label('timezone'),
  exdate: listField(array(timestamp('exdate items').required('The exdate must be a list of epoch seconds')), undefined, 'The exdate must hold at most ${max} dates').typeError(
    'The exdate must be a list of epoch seconds',
  ),
})
  .typeError('The pbehavior must be a JSON object');

/** The keys a body may carry; any other is dropped. */
const bodyFields: Readonly<Record<string, unknown>> = pbehaviorBodySchema.fields;

/** A creation body: the required fields (checked first, with the original's message) are marked for the API docs. */
export const pbehaviorCreationSchema = pbehaviorBodySchema.shape({
  name: idField(text('name'), 'The name must be at most ${max} characters long').required(requiredFieldsMessage),
  filter: object().typeError('The filter must be a JSON object (a query on entities)').required(requiredFieldsMessage),
  tstart: timestamp('tstart').required(requiredFieldsMessage),
  tstop: timestamp('tstop').required(requiredFieldsMessage),
});

/** A PUT body, validated: every field optional. */
export type PbehaviorBody = InferType<typeof pbehaviorBodySchema>;
/** A POST body, validated: the required fields present. */
export type PbehaviorCreationBody = InferType<typeof pbehaviorCreationSchema>;

/** Fields the API outputs but nobody sets: accepted in bodies (a read pbehavior can be sent back) and ignored. */
const outputOnlyFields = ['isActive', 'is_currently_active', 'eids'];

export function parseFilterText(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new HttpError(400, 'The filter must be a JSON object (a query on entities)');
  }
}

/**
 * Resolves the original's input forms into the spec's (REFERENCE §1, §4.10): `filter_` for `filter`, a filter sent
 * as JSON text, `enabled` as `"true"`/`"True"`/`"false"`/`"False"`, and null for "not given".
 */
function resolveAliases(body: unknown, ignored: readonly string[]): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    // Keys the original does not know are dropped, as it drops them (REFERENCE §4.10).
    if (value === null || ignored.includes(key) || !(key in bodyFields || key === 'filter_')) continue;
    out[key] = value;
  }
  if (out.filter === undefined && out.filter_ !== undefined) out.filter = out.filter_;
  delete out.filter_;
  if (typeof out.filter === 'string') out.filter = parseFilterText(out.filter);
  if (out.enabled === 'true' || out.enabled === 'True') out.enabled = true;
  if (out.enabled === 'false' || out.enabled === 'False') out.enabled = false;
  return out;
}

/** The entity filter, checked: allowed operators only, bounded, and understood by the query engine. */
export function checkedFilter(filter: unknown): Filter {
  const safe = assertSafeFilter(filter);
  try {
    new Query(safe).test({ _id: '' });
  } catch (err) {
    throw new HttpError(400, `Invalid filter: ${errorDetail(err)}`);
  }
  return safe;
}

/** Cross-field checks shared by creation and update: the window, the zone, and a recurrence that can be iterated. */
export function checkTiming(record: Pick<PbehaviorRecord, 'tstart' | 'tstop' | 'rrule' | 'timezone' | 'exdate'>): void {
  if (record.tstop <= record.tstart) throw new HttpError(400, 'tstop cannot be inferior or equal to tstart');
  if (!TimeZone.isValid(record.timezone)) {
    throw new HttpError(400, `The timezone ${JSON.stringify(record.timezone)} is not a known IANA time zone (such as Europe/Paris or UTC)`);
  }
  try {
    new Schedule(record);
  } catch (err) {
    if (err instanceof RecurrenceError) throw new HttpError(400, `Invalid RRULE: ${err.message}`);
    throw err;
  }
}

function newComments(comments: PbehaviorBody['comments']): PbehaviorComment[] {
  return (comments ?? []).map((comment) => ({ _id: randomUUID(), author: comment.author, message: comment.message }));
}

export interface CreationContext {
  /** The authenticated user: the author when the body has none. */
  user: string;
  defaultTimezone: string;
}

/**
 * A POST body in the form `pbehaviorCreationSchema` checks (the route's `prepareBody`): aliases resolved, and the
 * original's answer when a required field is missing or empty, before any field is checked.
 */
export function creationBody(body: unknown): unknown {
  const resolved = resolveAliases(body, outputOnlyFields);
  if (typeof resolved === 'object' && resolved !== null && !Array.isArray(resolved)) {
    const given = resolved as Record<string, unknown>;
    const missing = ['name', 'filter', 'tstart', 'tstop'].some((field) => given[field] === undefined || given[field] === '');
    if (missing) throw new HttpError(400, requiredFieldsMessage);
  }
  return resolved;
}

/** A PUT body in the form `pbehaviorBodySchema` checks (the route's `prepareBody`): aliases resolved, comments ignored. */
export function updateBody(body: unknown): unknown {
  return resolveAliases(body ?? {}, [...outputOnlyFields, 'comments']);
}

/** A creation body no route validated (the pbehaviors rule engines create), checked as POST checks its body. */
export function checkedCreation(body: unknown): PbehaviorCreationBody {
  return validate(pbehaviorCreationSchema, creationBody(body), { strict: true });
}

/** A new pbehavior from a validated creation body (eids not computed yet), with its checked filter. */
export function readCreation(input: PbehaviorCreationBody, context: CreationContext): { record: PbehaviorRecord; filter: Filter } {
  const filter = checkedFilter(input.filter);
  const record: PbehaviorRecord = {
    _id: input._id ?? randomUUID(),
    name: input.name,
    author: input.author || context.user,
    filter: JSON.stringify(filter),
    tstart: input.tstart,
    tstop: input.tstop,
    rrule: input.rrule || null,
    enabled: input.enabled ?? true,
    comments: newComments(input.comments),
    connector: input.connector ?? 'canopsis',
    connector_name: input.connector_name ?? 'canopsis',
    type_: input.type_ ?? 'generic',
    reason: input.reason ?? '',
    timezone: input.timezone ?? context.defaultTimezone,
    exdate: input.exdate ?? [],
    eids: [],
  };
  checkTiming(record);
  return { record, filter };
}

/**
 * An existing pbehavior updated by a validated PUT body: given fields replace stored ones, null or absent ones are left as
 * they are, `eids` and `comments` are ignored, and `rrule: ""` removes the recurrence. `filter` is set when the
 * filter changed (its eids must be computed again).
 */
export function readUpdate(existing: PbehaviorRecord, input: PbehaviorBody): { record: PbehaviorRecord; filter: Filter | null } {
  if (input._id !== undefined && input._id !== existing._id) throw new HttpError(400, 'The _id of a pbehavior cannot be modified');
  const filter = input.filter === undefined ? null : checkedFilter(input.filter);
  const record: PbehaviorRecord = {
    ...existing,
    name: input.name === undefined || input.name === '' ? existing.name : input.name,
    author: input.author || existing.author,
    filter: filter === null ? existing.filter : JSON.stringify(filter),
    tstart: input.tstart ?? existing.tstart,
    tstop: input.tstop ?? existing.tstop,
    rrule: input.rrule === undefined ? existing.rrule : input.rrule || null,
    enabled: input.enabled ?? existing.enabled,
    connector: input.connector ?? existing.connector,
    connector_name: input.connector_name ?? existing.connector_name,
    type_: input.type_ ?? existing.type_,
    reason: input.reason ?? existing.reason,
    timezone: input.timezone ?? existing.timezone,
    exdate: input.exdate ?? existing.exdate,
  };
  checkTiming(record);
  return { record, filter: filter !== null && record.filter !== existing.filter ? filter : null };
}
