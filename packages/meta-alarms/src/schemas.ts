import { array, boolean, number, object, string, type InferType } from 'yup';
import { idField, longTextField, nameField } from '@vigie/input';
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

/**
 * The request body of POST and PUT as the kernel checks it, after `checkRuleOrder` (the order-sensitive checks) and
 * `ruleBody` (`patterns` and `config` decoded when sent as JSON text, an empty `_id` dropped: one is generated).
 */
export const metaAlarmRuleInputSchema = object({
  _id: idField(string()),
  name: nameField(string()).required(),
  type: string().oneOf(ruleTypes).required(),
  patterns: rulePatternsSchema,
  config: ruleConfigSchema,
  auto_resolve: boolean(),
  output_template: longTextField(string()),
});

/** A rule as the API returns it: `patterns` and `config` always present (null when unset). */
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

export type MetaAlarmRuleOutput = InferType<typeof metaAlarmRuleSchema>;

export const deleteResultSchema = object({ acknowledged: boolean().required(), deletedCount: number().integer().required() });
