import { array, boolean, mixed, number, object, string } from 'yup';
import { idField, longTextField, nameField } from '@vigie/kernel';
import { patternListSchema } from '@vigie/rule-schemas';
import { ruleTypes } from './rule-types.js';

/**
 * A rule's `config`, once its keys passed the type table (`rule-input.ts`). Times are seconds; the rate is the share
 * of matched entities among those `entity_patterns` (or `total_entity_patterns`) select, so it lies in (0, 1].
 */
export const ruleConfigSchema = object({
  time_interval: number()
    .typeError('${path} should be a non-negative integer (seconds)')
    .integer('${path} should be a non-negative integer (seconds)')
    .min(0, '${path} should be a non-negative integer (seconds)')
    .nonNullable('${path} should be a non-negative integer (seconds)'),
  threshold_count: number()
    .typeError('${path} should be a positive integer')
    .integer('${path} should be a positive integer')
    .min(1, '${path} should be a positive integer')
    .nonNullable('${path} should be a positive integer'),
  threshold_rate: number()
    .typeError('${path} should be a number greater than 0 and at most 1')
    .moreThan(0, '${path} should be a number greater than 0 and at most 1')
    .max(1, '${path} should be a number greater than 0 and at most 1')
    .nonNullable('${path} should be a number greater than 0 and at most 1'),
  alarm_patterns: patternListSchema(),
  entity_patterns: patternListSchema(),
  event_patterns: patternListSchema(),
  attribute_patterns: patternListSchema(),
  total_entity_patterns: patternListSchema(),
})
  .noUnknown('${path} holds unknown keys: ${unknown}')
  .nullable()
  .test({
    name: 'one-threshold',
    message: 'config.threshold_count and config.threshold_rate are mutually exclusive',
    test: (config) => !config || config.threshold_count === undefined || config.threshold_rate === undefined,
  });

/** A rule's `patterns`: the engine reads only `entity_patterns` from it. */
export const rulePatternsSchema = object({ entity_patterns: patternListSchema() })
  .noUnknown('${path} holds unknown keys: ${unknown}')
  .nullable()
  .typeError('${path} should be an object or null');

/** What `config` and `patterns` must look like after JSON-text decoding. */
export const ruleContentSchema = object({ patterns: rulePatternsSchema, config: ruleConfigSchema });

/**
 * The request body of POST and PUT, for the OpenAPI document (`rule-input.ts` checks bodies in the original's order).
 * `patterns` and `config` may also be JSON text; `_id` is generated when absent or empty.
 */
export const metaAlarmRuleInputSchema = object({
  _id: idField(string()),
  name: nameField(string()).required(),
  type: string().oneOf(ruleTypes).required(),
  patterns: mixed().nullable(),
  config: mixed().nullable(),
  auto_resolve: boolean(),
  output_template: longTextField(string()),
});

/** A rule as the API returns it. */
export const metaAlarmRuleSchema = object({
  _id: string().required(),
  name: string().required(),
  type: string().oneOf(ruleTypes).required(),
  patterns: object({ entity_patterns: array(object()).nullable() }).nullable().defined(),
  config: object({
    time_interval: number().integer(),
    threshold_count: number().integer(),
    threshold_rate: number(),
    alarm_patterns: array(object()).nullable(),
    entity_patterns: array(object()).nullable(),
    event_patterns: array(object()).nullable(),
    attribute_patterns: array(object()).nullable(),
    total_entity_patterns: array(object()).nullable(),
  })
    .nullable()
    .defined(),
  auto_resolve: boolean(),
  output_template: string(),
});

export const deleteResultSchema = object({ acknowledged: boolean().required(), deletedCount: number().integer().required() });
