import { array, boolean, mixed, number, object, string, type TestContext } from 'yup';
import { idField, listField, nameField } from '@vigie/input';
import { hookTriggers, patternListSchema, regexProblem, triggersWithoutEvent } from '@vigie/rule-schemas';
import { parseTemplate } from '@vigie/templates';
import { deliveryStatuses } from './delivery-repository.js';

/** Most deliveries one page of the list holds. */
export const maxDeliveryPage = 1000;

/** The alarm changes a webhook can listen to. */
export const webhookTriggers = hookTriggers;

export const httpMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export const retryUnits = ['s', 'm', 'h'] as const;

/** `declare_ticket` keys that are switches; every other key names a field of the response. */
const declareTicketFlags = ['regexp', 'empty_response'];

const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A yup error whose text is built by us: user input in it is never read as a `${…}` placeholder. */
function problem(context: TestContext, message: string) {
  return context.createError({ message: () => message });
}

/** Templates are parsed at save time, so a broken one is refused with its line and column. */
function templateProblem(value: string, where: string): string | null {
  const parsed = parseTemplate(value);
  return parsed.ok ? null : `${where}: ${parsed.error.message}`;
}

function isTemplate(value: unknown, context: TestContext) {
  if (typeof value !== 'string') return true;
  const found = templateProblem(value, context.path);
  return found === null || problem(context, found);
}

/** A URL without template actions can be checked now: it must be absolute http(s). */
function isHttpUrl(value: unknown, context: TestContext) {
  if (typeof value !== 'string' || value.includes('{{')) return true;
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // not a URL: refused below
  }
  return protocol === 'http:' || protocol === 'https:' || problem(context, 'request.url should be an absolute http or https URL (or a template)');
}

function areHeaders(value: unknown, context: TestContext) {
  if (value === undefined || value === null) return true;
  for (const [name, header] of Object.entries(value as Record<string, unknown>)) {
    if (!headerName.test(name)) return problem(context, `request.headers holds an invalid header name ${JSON.stringify(name)}`);
    if (typeof header !== 'string') return problem(context, `request.headers.${name} should be a string`);
    const found = templateProblem(header, `request.headers.${name}`);
    if (found) return problem(context, found);
  }
  return true;
}

function isDeclareTicket(value: unknown, context: TestContext) {
  if (value === undefined || value === null) return true;
  const mapping = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(mapping)) {
    if (declareTicketFlags.includes(key)) {
      if (typeof field !== 'boolean') return problem(context, `declare_ticket.${key} should be a boolean`);
    } else if (typeof field !== 'string') {
      return problem(context, `declare_ticket.${key} should be a string naming a field of the response`);
    } else if (mapping.regexp === true) {
      const found = regexProblem(field);
      if (found) return problem(context, `declare_ticket.${key} is not an accepted regular expression: ${found}`);
    }
  }
  return true;
}

const nonNegativeInteger = (message: string) => number().typeError(message).integer(message).min(0, message).nonNullable(message);

const hookSchema = object({
  triggers: listField(array(string().typeError('${path} should be a string').oneOf(webhookTriggers, `\${path} should be one of ${webhookTriggers.join(', ')}`)))
    .defined('hook.triggers is required')
    .nonNullable('hook.triggers should be a list of trigger names')
    .typeError('hook.triggers should be a list of trigger names')
    .min(1, 'hook.triggers should name at least one trigger'),
  event_patterns: patternListSchema(),
  entity_patterns: patternListSchema(),
  alarm_patterns: patternListSchema(),
})
  .noUnknown('hook holds unknown keys: ${unknown}')
  .defined('hook is required')
  .nonNullable('hook should be an object')
  .typeError('hook should be an object')
  .test('event-triggers', (hook, context) => {
    const triggers: unknown = hook?.triggers;
    const patterns: unknown = hook?.event_patterns;
    // Field tests report wrong shapes; this one only looks at well-formed lists.
    if (!Array.isArray(triggers) || !Array.isArray(patterns) || patterns.length === 0) return true;
    const internal = triggers.filter((trigger) => (triggersWithoutEvent as readonly unknown[]).includes(trigger));
    if (internal.length === 0) return true;
    return problem(context, `hook.event_patterns cannot be used with the triggers ${internal.join(', ')}: they are not raised by an event`);
  });

const requestSchema = object({
  method: string()
    .defined('request.method is required')
    .nonNullable('request.method should be a string')
    .typeError('request.method should be a string')
    .test('http-method', `request.method should be one of ${httpMethods.join(', ')}`, (method) => method === undefined || (httpMethods as readonly string[]).includes(method.toUpperCase()))
    .meta({ jsonSchema: { enum: httpMethods, description: 'Any letter case; stored in capitals' } }),
  url: string()
    .defined('request.url is required')
    .nonNullable('request.url should be a string')
    .typeError('request.url should be a string')
    .min(1, 'request.url should not be empty')
    .test('template', isTemplate)
    .test('http-url', isHttpUrl)
    .meta({ jsonSchema: { description: 'A template, parsed at save time' } }),
  headers: object().nullable().typeError('request.headers should be an object whose values are strings').test('headers', areHeaders),
  payload: string()
    .nullable()
    .typeError('request.payload should be a string')
    .test('template', isTemplate)
    .meta({ jsonSchema: { description: 'A template, parsed at save time; it should render to the body to send' } }),
  auth: object({
    username: nameField(string(), 'request.auth.username should be at most ${max} characters')
      .defined('request.auth.username is required').nonNullable('request.auth.username should be a string').typeError('request.auth.username should be a string'),
    // Custom texts everywhere here: yup's defaults would repeat the value, and this one is a secret.
    password: nameField(string(), 'request.auth.password should be at most ${max} characters')
      .nonNullable('request.auth.password should be a string')
      .typeError('request.auth.password should be a string')
      .meta({ jsonSchema: { description: 'Encrypted at rest, never returned; on PUT, left out to keep the stored one' } }),
  })
    .noUnknown('request.auth holds unknown keys: ${unknown}')
    .nullable()
    .typeError('request.auth should be an object with username and password'),
})
  .noUnknown('request holds unknown keys: ${unknown}')
  .defined('request is required')
  .nonNullable('request should be an object')
  .typeError('request should be an object');

const retrySchema = object({
  count: nonNegativeInteger('retry.count should be a non-negative integer'),
  delay: nonNegativeInteger('retry.delay should be a non-negative integer'),
  unit: string().typeError('retry.unit should be one of s, m, h').oneOf(retryUnits, 'retry.unit should be one of s, m, h').nonNullable('retry.unit should be one of s, m, h'),
})
  .noUnknown('retry holds unknown keys: ${unknown}')
  .nullable()
  .typeError('retry should be an object');

const flag = (name: string) => boolean().typeError(`${name} should be a boolean`).nonNullable(`${name} should be a boolean`);

/** POST and PUT bodies. `author` and the dates come back from GET: they are accepted and ignored. */
export const webhookInputSchema = object({
  _id: idField(string())
    .nonNullable('_id should be a string')
    .typeError('_id should be a string')
    .test('not-blank', '_id should not be empty', (id) => id === undefined || id.trim() !== ''),
  enabled: flag('enabled'),
  disable_if_active_pbehavior: flag('disable_if_active_pbehavior'),
  hook: hookSchema,
  request: requestSchema,
  retry: retrySchema,
  declare_ticket: object().nullable().typeError('declare_ticket should be an object').test('declare-ticket', isDeclareTicket),
  author: mixed(),
  creation_date: mixed(),
  last_update_date: mixed(),
})
  .noUnknown('the following keys are invalid: ${unknown}')
  .nonNullable('expected a JSON object')
  .typeError('expected a JSON object');

const patternList = () => array(object()).nullable();

/** A webhook as the API returns it: never with `request.auth`. */
export const webhookSchema = object({
  _id: string().required(),
  enabled: boolean().required(),
  disable_if_active_pbehavior: boolean().required(),
  hook: object({ triggers: array(string().oneOf(webhookTriggers).defined()).required(), event_patterns: patternList(), entity_patterns: patternList(), alarm_patterns: patternList() }).required(),
  request: object({ method: string().oneOf(httpMethods).required(), url: string().required(), headers: object(), payload: string() }).required(),
  retry: object({ count: number().integer(), delay: number().integer(), unit: string().oneOf(retryUnits) }).optional().default(undefined),
  declare_ticket: object({ ticket_id: string(), ticket_creation_date: string(), priority: string(), regexp: boolean(), empty_response: boolean() }).optional().default(undefined),
  author: string().required(),
  creation_date: number().integer().required(),
  last_update_date: number().integer().required(),
});

/** Query of `GET /api/v2/webhook-deliveries`; values arrive as strings and are cast. */
export const deliveryQuerySchema = object({
  webhook: string().typeError('webhook must be a webhook id').meta({ jsonSchema: { description: 'Only the deliveries of this webhook' } }),
  alarm: string().typeError('alarm must be an alarm id').meta({ jsonSchema: { description: 'Only the deliveries for this alarm' } }),
  status: string()
    .typeError(`status must be one of ${deliveryStatuses.join(', ')}`)
    .oneOf(deliveryStatuses, `status must be one of ${deliveryStatuses.join(', ')}`),
  skip: number().typeError('skip must be an integer').integer('skip must be an integer').min(0, 'skip must not be negative').default(0),
  limit: number()
    .typeError('limit must be an integer')
    .integer('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(maxDeliveryPage, `limit must be at most ${maxDeliveryPage}`)
    .default(50),
});

const attemptSchema = object({
  t: number().integer().required().meta({ jsonSchema: { description: 'Start of the attempt, epoch seconds' } }),
  status: number().integer().meta({ jsonSchema: { description: 'The answer status; absent when there was no answer' } }),
  error: string().meta({ jsonSchema: { description: 'Why the attempt failed; absent for a success' } }),
  duration_ms: number().integer().required(),
});

/** A delivery as the API returns it (never with credentials: they are not part of a delivery). */
export const deliverySchema = object({
  _id: string().required().meta({ jsonSchema: { description: 'The delivery id, sent as Idempotency-Key by every attempt' } }),
  webhook: string().required(),
  alarm: string().required(),
  entity: string().required(),
  trigger: string().required(),
  status: string().oneOf(deliveryStatuses).required(),
  request: object({ method: string().required(), url: string().required(), headers: object().required(), payload: string() }).required(),
  attempts: array(attemptSchema).required(),
  max_attempts: number().integer().required(),
  next_attempt_at: number().integer().meta({ jsonSchema: { description: 'Pending deliveries: earliest time of the next attempt, epoch seconds' } }),
  depth: number().integer().required(),
  ticket: string(),
  reason: string(),
  created: number().integer().required(),
  updated: number().integer().required(),
  finished: number().integer(),
});

export const deliveryPageSchema = object({ total_count: number().integer().required(), count: number().integer().required(), data: array(deliverySchema).required() });
