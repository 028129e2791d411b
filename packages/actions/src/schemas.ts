import { array, boolean, number, object, string, type InferType } from 'yup';
import { durationPattern, idField, listField, nameField, tooLongMessage, tooManyMessage } from '@vigie/input';
import { isJsonObject } from '@vigie/json';
import { patternListSchema, regexProblem, hookTriggers } from '@vigie/rule-schemas';

/** Operations an action can apply (REFERENCE §5.4). */
export const actionTypes = ['pbehavior', 'snooze', 'ack', 'ackremove', 'assocticket', 'declareticket', 'cancel', 'changestate'] as const;

/** What can fire a hook (REFERENCE §5.4). */
export const actionTriggers = hookTriggers;

/** The original's answer to an action without a string `_id` and `type`; other shape problems add a detail. */
const invalidFormat = 'invalid action format';
const invalid = (detail: string): string => `${invalidFormat}: ${detail}`;

/** A JSON object with at least one key: what PUT accepts, like the original (POST validates any object). */
export function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && Object.keys(value).length > 0;
}

/** Python truthiness: the original tested `element.get('hook') and (element.get('fields') or element.get('regex'))`. */
const isPresent = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0) && !(isJsonObject(value) && Object.keys(value).length === 0);

/** `pbehavior` parameters: a fixed window (`tstart`, `tstop`) or one that opens when the action fires (4.2.94). */
function validPbehaviorParameters(parameters: unknown): boolean {
  if (!isJsonObject(parameters)) return false;
  const strings = ['name', 'author', 'type', 'reason'].every((key) => parameters[key] === undefined || typeof parameters[key] === 'string');
  const rrule = parameters.rrule === undefined || parameters.rrule === null || typeof parameters.rrule === 'string';
  const window = Number.isInteger(parameters.tstart) && Number.isInteger(parameters.tstop);
  const duration = parameters.duration;
  const onTrigger =
    typeof parameters.start_on_trigger === 'boolean' && isJsonObject(duration) && typeof duration.seconds === 'number' && typeof duration.unit === 'string';
  return strings && rrule && (window || onTrigger);
}

/** `snooze` parameters: `duration` in seconds, `message` (string or null), `author`. */
function validSnoozeParameters(parameters: unknown): boolean {
  if (!isJsonObject(parameters)) return false;
  const { duration, message, author } = parameters;
  return (
    typeof duration === 'number' &&
    Number.isInteger(duration) &&
    duration > 0 &&
    (message === undefined || message === null || typeof message === 'string') &&
    (author === undefined || typeof author === 'string')
  );
}

function stringItem() {
  const message = invalid('${path} should be a string');
  return string().defined().nonNullable(message).typeError(message);
}

function hookPatterns() {
  return patternListSchema({
    list: invalid('${path} should be a list of objects or null'),
    item: invalid('${path} should be an object'),
    regex: invalid,
    tooMany: invalid(tooManyMessage),
  });
}

const hookSchema = object({
  triggers: listField(array(stringItem().oneOf(actionTriggers, invalid('${path} should be one of: ${values}'))), undefined, invalid(tooManyMessage))
    .required(invalid('the hook.triggers field is required'))
    .typeError(invalid('hook.triggers should be a list of triggers'))
    .min(1, invalid('hook.triggers should list at least one trigger')),
  event_patterns: hookPatterns(),
  alarm_patterns: hookPatterns(),
  entity_patterns: hookPatterns(),
})
  // yup gives nested objects a `{}` default, which the OpenAPI document would show.
  .default(undefined)
  .nullable()
  .typeError(invalid('hook should be an object'))
  .noUnknown(invalid('the following keys of hook are invalid: ${unknown}'));

/**
 * The body of POST and PUT. Keys other than these are ignored, as the original's model ignored them (they are
 * neither stored nor shown).
 */
export const actionBodySchema = object({
  _id: idField(string().required(invalidFormat).typeError(invalidFormat).min(1, invalidFormat), invalid(tooLongMessage)),
  type: string().required(invalidFormat).typeError(invalidFormat).oneOf(actionTypes, invalid('type should be one of: ${values}')),
  hook: hookSchema,
  parameters: object().default(undefined).nullable().typeError(invalid('parameters should be an object')),
  delay: string()
    .nullable()
    .typeError('delay value is invalid')
    .test('duration', 'delay value is invalid', (delay) => delay === undefined || delay === null || delay === '' || durationPattern.test(delay)),
  priority: number().typeError(invalid('priority should be an integer')).integer(invalid('priority should be an integer')),
  fields: listField(array(nameField(stringItem(), invalid(tooLongMessage))), undefined, invalid(tooManyMessage))
    .nullable()
    .typeError(invalid('fields should be a list of strings')),
  regex: string()
    .nullable()
    .typeError(invalid('regex should be a string'))
    .test({
      name: 'bounded-regex',
      test(regex, context) {
        const problem = typeof regex === 'string' && regex !== '' ? regexProblem(regex) : null;
        return problem === null || context.createError({ message: () => invalid(`regex is not an accepted regular expression: ${problem}`) });
      },
    }),
})
  .test('hook-or-fields', 'Sent data has a hook and fields/regex defined at the same time', (action) =>
    !(isPresent(action.hook) && (isPresent(action.fields) || isPresent(action.regex))),
  )
  .test('pbehavior-parameters', 'invalid pbehavior parameters', (action) => action.type !== 'pbehavior' || validPbehaviorParameters(action.parameters))
  .test('snooze-parameters', 'invalid snooze parameters', (action) => action.type !== 'snooze' || validSnoozeParameters(action.parameters));

export type ActionBody = InferType<typeof actionBodySchema>;

const hookOutputSchema = object({
  triggers: array(string().required()).required(),
  event_patterns: array(object()).nullable(),
  alarm_patterns: array(object()).nullable(),
  entity_patterns: array(object()).nullable(),
}).default(undefined);

const storedFields = {
  _id: string().required(),
  type: string().required().oneOf(actionTypes),
  delay: string(),
  priority: number().integer(),
  creation_date: number().integer().required(),
  last_update_date: number().integer().required(),
};

/**
 * An action in the list and as `default_action` stores it (read as is by the engine): what was sent, without the
 * defaults of the single-action answer. The stored and API types are inferred from it.
 */
export const actionSchema = object({
  ...storedFields,
  hook: hookOutputSchema.optional(),
  parameters: object().default(undefined).optional(),
  fields: array(string().required()),
  regex: string(),
});

export type Action = InferType<typeof actionSchema>;
/** When an action fires: one of `triggers`, and every pattern list given (each an OR of patterns). */
export type ActionHook = NonNullable<Action['hook']>;

/** The single-action answer: `hook` (or null), `parameters`, `regex` (or null) and `fields` always present. */
export const actionDetailSchema = object({
  ...storedFields,
  hook: hookOutputSchema.nullable().defined(),
  parameters: object().default(undefined).required(),
  regex: string().nullable().defined(),
  fields: array(string().required()).required(),
});

export type ActionDetail = InferType<typeof actionDetailSchema>;

export const createdActionSchema = object({ _id: string().required() });
export const emptyObjectSchema = object({});
export const deletedSchema = boolean().required();
