import { array, boolean, number, object, string, type InferType } from 'yup';
import { idField, inputBounds, listField, nameField, textField } from '@vigie/input';
import { patternListSchema } from '@vigie/rule-schemas';

/** What the engine compares with the rule's `duration` (REFERENCE §5.3). */
export const idleRuleTypes = ['last_event', 'last_update'] as const;

/** The action types an idle rule can apply (REFERENCE §5.3). */
export const operationTypes = ['ack', 'ackremove', 'assocticket', 'cancel', 'changestate', 'declareticket', 'snooze', 'pbehavior'] as const;

/** The original's answer to a body that is absent or not JSON (`invalid idle rule: …` once worded). */
export const absentBodyDetail = 'expected a dictionary, not None';

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** Operation parameters the API bounds to 255 characters (the spec's changes from 25.10.2 to 26.04.0). */
export const boundedOperationParameters = ['output', 'ticket', 'ticket_system_name', 'ticket_url', 'ticket_url_title'] as const;

const operationSchema = object({
  type: string()
    .required('the operation.type field is required')
    .typeError('operation.type should be a string')
    .oneOf(operationTypes, `operation.type should be one of: ${operationTypes.join(', ')}`),
  parameters: object()
    .typeError('operation.parameters should be an object')
    .test('bounded-parameters', (parameters, context) => {
      const long = boundedOperationParameters.find((key) => {
        const value: unknown = (parameters as Record<string, unknown> | undefined)?.[key];
        return typeof value === 'string' && value.length > inputBounds.idLength;
      });
      return long === undefined || context.createError({ message: `operation.parameters.${long} must be at most ${inputBounds.idLength} characters` });
    }),
})
  // yup gives nested objects a `{}` default, which the OpenAPI document would show as the body's default.
  .default(undefined)
  .required('the operation field is required')
  .typeError('operation should be an object')
  .noUnknown('the following keys of operation are invalid: ${unknown}');

/**
 * The body of POST and PUT. `author`, `creation_date` and `last_modified_date` are accepted (a rule read with GET
 * can be sent back as is) and ignored: the service sets them.
 */
export const idleRuleBodySchema = object({
  _id: idField(string()).typeError('_id should be a string').min(1, '_id should not be empty'),
  // The original's text for a missing name (a Python KeyError printed): `invalid idle rule: name`.
  name: nameField(string()).required('name').typeError('name should be a string'),
  description: textField(string()).nullable().typeError('description should be a string'),
  // As in the original, the API checks only that `type` and `duration` are non-empty strings; the engine interprets
  // them and skips, with a warning, a rule it cannot apply (REFERENCE §4.1, §5.3).
  type: string()
    .required('the type field is required')
    .typeError('type should be a string')
    .meta({ jsonSchema: { description: `The engine applies ${idleRuleTypes.join(' and ')}` } }),
  duration: string()
    .required('the duration field is required')
    .typeError('duration should be a string')
    .meta({ jsonSchema: { description: 'A number followed by a unit among s, m, h, d, w, such as 3m' } }),
  operation: operationSchema,
  alarm_patterns: patternListSchema(),
  entity_patterns: patternListSchema(),
  /** Accepted and stored as the original (4.2.94) does; the engine gives it no meaning. */
  disable_during_periods: listField(array(textField(string()).required()).nullable().typeError('disable_during_periods should be a list of strings')),
  author: nameField(string()).typeError('author should be a string'),
  creation_date: number().typeError('creation_date should be a timestamp'),
  last_modified_date: number().typeError('last_modified_date should be a timestamp'),
})
  .required(absentBodyDetail)
  .typeError((params: { value: unknown }) => `expected a dictionary, not ${kindOf(params.value)}`)
  .noUnknown('the following keys are invalid: ${unknown}');

export type IdleRuleBody = InferType<typeof idleRuleBodySchema>;

/**
 * An idle rule as the API shows it and as `idle_rule` stores it (the same fields and value forms, so the engine reads
 * what the API shows): the body, with what the service always sets. The one description of the rule: the stored and
 * API types are inferred from it, and its OpenAPI schema is generated from it.
 */
export const idleRuleSchema = idleRuleBodySchema.shape({
  _id: idField(string()).required(),
  description: textField(string()).defined(),
  alarm_patterns: patternListSchema().defined(),
  entity_patterns: patternListSchema().defined(),
  author: nameField(string()).defined(),
  creation_date: number().integer().required(),
  last_modified_date: number().integer().required(),
});

export type IdleRule = InferType<typeof idleRuleSchema>;

export const deleteResultSchema = object({ deletedCount: number().integer().required(), acknowledged: boolean().required() });
