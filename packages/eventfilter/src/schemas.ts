import { array, boolean, mixed, number, object, string, type InferType } from 'yup';
import { idField, listField, textField } from '@vigie/input';
import { patternListSchema, patternSchema } from '@vigie/rule-schemas';

/** What a matching rule does (REFERENCE §5.2). */
export const ruleTypes = ['break', 'drop', 'enrichment'] as const;

/** What happens after an enrichment rule ran (`on_success`) or failed (`on_failure`). */
export const ruleOutcomes = ['pass', 'break', 'drop'] as const;

/** Fields only enrichment rules may carry. */
export const enrichmentFields = ['external_data', 'actions', 'on_success', 'on_failure'] as const;

function outcomeSchema(field: string) {
  const message = `The ${field} field should be one of: ${ruleOutcomes.join(', ')}.`;
  // As in the original, an empty or null outcome counts as unset (`pass`).
  return string()
    .nullable()
    .typeError(message)
    .test('outcome', message, (outcome) => !outcome || (ruleOutcomes as readonly string[]).includes(outcome));
}

const regexWording = (field: string) => (problem: string) => `The ${field} field is invalid: ${problem}.`;

/**
 * A rule as sent to POST and PUT. `_id` is checked by the routes before the rest (kept or generated on POST, compared
 * with the path on PUT).
 */
export const ruleBodySchema = object({
  _id: mixed().nullable().meta({ jsonSchema: { type: 'string', description: 'Kept when a non-empty string without spaces; generated otherwise' } }),
  description: textField(string(), 'The description field should be at most ${max} characters.').nonNullable('The description field should be a string.').typeError('The description field should be a string.'),
  type: string()
    .required('The type field is required.')
    .typeError(`The type field should be one of: ${ruleTypes.join(', ')}.`)
    .oneOf(ruleTypes, `The type field should be one of: ${ruleTypes.join(', ')}.`),
  pattern: patternSchema({ object: 'The pattern field should be an object.', regex: regexWording('pattern') })
    // yup gives nested objects a `{}` default, which the OpenAPI document would show.
    .default(undefined)
    .optional()
    .nullable(),
  patterns: patternListSchema({
    list: 'The patterns field should be a list of objects or null.',
    item: 'The patterns field should only contain objects.',
    regex: regexWording('patterns'),
    tooMany: 'The patterns field should hold at most ${max} patterns.',
  }),
  priority: number()
    .nonNullable('The priority field should be an integer.')
    .typeError('The priority field should be an integer.')
    .integer('The priority field should be an integer.'),
  enabled: boolean().nonNullable('The enabled field should be a boolean.').typeError('The enabled field should be a boolean.'),
  external_data: object().default(undefined).optional().nonNullable('The external_data field should be an object.').typeError('The external_data field should be an object.'),
  actions: listField(
    array(object().nonNullable('The actions field should only contain objects.').typeError('The actions field should only contain objects.')),
    undefined,
    'The actions field should hold at most ${max} actions.',
  )
    .nonNullable('The actions field should be a list.')
    .typeError('The actions field should be a list.'),
  on_success: outcomeSchema('on_success'),
  on_failure: outcomeSchema('on_failure'),
})
  .noUnknown('Unexpected fields: ${unknown}.')
  .test('one-pattern-form', 'The pattern and patterns fields cannot be used together.', (rule) => rule.pattern === undefined || rule.patterns === undefined)
  .test({
    name: 'enrichment-fields',
    test(rule, context) {
      const present = enrichmentFields.filter((field) => rule[field] !== undefined);
      if (rule.type === 'enrichment' || present.length === 0) return true;
      return context.createError({ message: `The following fields should only be defined for enrichment rules: ${present.join(', ')}.` });
    },
  })
  .test({
    name: 'enrichment-actions',
    test(rule, context) {
      if (rule.type !== 'enrichment') return true;
      if (rule.actions === undefined) return context.createError({ message: 'The actions field is required for enrichment rules.' });
      // A non-list `actions` already has its own error.
      return !Array.isArray(rule.actions) || rule.actions.length > 0 || context.createError({ message: 'The actions field should contain at least one action.' });
    },
  });

/** What is validated once `_id` is set aside. */
export const ruleSchema = ruleBodySchema.omit(['_id']);

export type RuleBody = InferType<typeof ruleSchema>;

/**
 * A rule as the API shows it and as `eventfilter` stores it (read as is by the event pipeline): `_id` and `type`, and
 * the optional fields that were sent, with the body's checks. The stored and API types are inferred from it.
 */
export const ruleOutputSchema = ruleSchema.shape({ _id: idField(string()).required() });

export type Rule = InferType<typeof ruleOutputSchema>;

export const createdRuleSchema = object({ _id: string().required() });
export const emptyObjectSchema = object({});
