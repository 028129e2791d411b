import type { InferType } from 'yup';
import { ErrorCodes, VigieError, type VigieContext } from '@vigie/kernel';
import { inputBounds, requestBody } from '@vigie/input';
import { assertJsonDepth } from '@vigie/kernel-http';
import { isJsonObject } from '@vigie/json';
import { parseTemplate } from '@vigie/templates';
import { configKeyRuleTypes, isRuleType, type RuleType } from './rule-types.js';
import type { metaAlarmRuleInputSchema, ruleConfigSchema, rulePatternsSchema } from './schemas.js';

/** A rule's `config`, checked (its schema is `ruleConfigSchema`). */
export type RuleConfig = NonNullable<InferType<typeof ruleConfigSchema>>;

/** A rule's `patterns`, checked. */
export type RulePatterns = NonNullable<InferType<typeof rulePatternsSchema>>;

/** One pattern of a pattern list. */
export type Pattern = NonNullable<RuleConfig['alarm_patterns']>[number];

/** A checked POST or PUT body; `_id` is absent when the body has none (or an empty one). */
export type RuleInput = InferType<typeof metaAlarmRuleInputSchema>;

export const requiredFieldsMessage = "The fields 'name' and 'type' are required.";

function invalid(description: string): VigieError {
  return new VigieError(ErrorCodes.Validation, description);
}

/** A value as error texts show it: JSON, cut short. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

function missing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * The key the refusal names. The spec's error table answers `threshold_rate` sent with an `attribute` rule with
 * `invalid rule_type attribute with config time_interval` (the original's text), so that one pair is worded so;
 * every other refusal names the key really at fault.
 */
function reportedConfigKey(type: RuleType, key: string): string {
  return type === 'attribute' && key === 'threshold_rate' ? 'time_interval' : key;
}

/** `patterns` and `config` may be sent as JSON text (REFERENCE §4.7). */
function decodeJsonText(value: unknown, field: 'patterns' | 'config'): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    // The body parser bounded the body's nesting, not the nesting of JSON text inside it.
    assertJsonDepth(value, inputBounds.depth);
    return JSON.parse(value) as unknown;
  } catch {
    throw invalid(`Can't decode rule ${field} parameter: ${shown(value)}`);
  }
}

/** The first of `fields` whose text is longer than its bound, as an error text; null when all fit. */
function tooLongField(fields: Record<string, [unknown, number]>): string | null {
  for (const [field, [value, max]] of Object.entries(fields)) {
    if (typeof value === 'string' && value.length > max) return `${field} must be at most ${max} characters`;
  }
  return null;
}

/**
 * Checks a rule body in the original's order, so that a body with several problems gets the answer the original
 * gives (REFERENCE §4.7): required fields, type, name, `_id`, `auto_resolve`, `output_template`, JSON-text decoding,
 * then the config keys allowed for the type in their fixed order. The route's `preValidation`: the kernel then
 * checks the config values and patterns with the route's schema, on the body `ruleBody` prepared. Throws
 * `VALIDATION` errors whose detail is the answer's description.
 */
export function checkRuleOrder(ctx: VigieContext): void {
  const body = requestBody(ctx);
  if (!isJsonObject(body) || missing(body.name) || missing(body.type)) throw invalid(requiredFieldsMessage);
  const { _id, name, type, auto_resolve, output_template } = body;
  if (!isRuleType(type)) throw invalid(`rule type invalid value ${shown(type)}`);
  if (typeof name !== 'string') throw invalid(`name has invalid value: ${shown(name)}`);
  if (_id !== undefined && _id !== null && typeof _id !== 'string') throw invalid(`_id has invalid value: ${shown(_id)}`);
  if (auto_resolve !== undefined && typeof auto_resolve !== 'boolean') throw invalid(`invalid auto_resolve value type ${shown(auto_resolve)}`);
  if (output_template !== undefined && typeof output_template !== 'string') {
    throw invalid(`invalid output_template value type ${shown(output_template)}`);
  }
  const tooLong = tooLongField({ _id: [_id, inputBounds.idLength], name: [name, inputBounds.nameLength], output_template: [output_template, inputBounds.longTextLength] });
  if (tooLong) throw invalid(tooLong);
  if (typeof output_template === 'string') {
    const parsed = parseTemplate(output_template);
    if (!parsed.ok) throw invalid(`invalid output_template: ${parsed.error.message}`);
  }

  decodeJsonText(body.patterns, 'patterns');
  const config = decodeJsonText(body.config, 'config');
  if (config !== null && !isJsonObject(config)) throw invalid(`invalid config value type ${shown(config)}`);
  if (config) {
    for (const [key, types] of configKeyRuleTypes) {
      if (key in config && !types.includes(type)) throw invalid(`invalid rule_type ${type} with config ${reportedConfigKey(type, key)}`);
    }
  }
}

/**
 * The route's `prepareBody`, for a body `checkRuleOrder` accepted: the rule's own keys with `patterns` and `config`
 * decoded from JSON text. Other keys are dropped, as the original drops them; an empty `_id` is none.
 */
export function ruleBody(body: unknown): unknown {
  const { _id, name, type, patterns, config, auto_resolve, output_template } = body as Record<string, unknown>;
  return {
    ...(typeof _id === 'string' && _id !== '' ? { _id } : {}),
    name,
    type,
    patterns: decodeJsonText(patterns, 'patterns'),
    config: decodeJsonText(config, 'config'),
    ...(auto_resolve === undefined ? {} : { auto_resolve }),
    ...(output_template === undefined ? {} : { output_template }),
  };
}
