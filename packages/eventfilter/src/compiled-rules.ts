import { compileEventPatterns, compileSingleEventPattern, isPatternError, type CompiledPatterns, type PatternEntity, type PatternEvent } from '@vigie/patterns';
import { compile, type Template } from '@vigie/templates';
import { isJsonObject } from '@vigie/json';
import { eventFieldsRead } from './event-fields.js';
import type { RuleRecord } from './rule-repository.js';
import { ruleOutcomes, ruleTypes } from './schemas.js';

export type RuleType = (typeof ruleTypes)[number];
export type RuleOutcome = (typeof ruleOutcomes)[number];

/** A value an action takes: a constant, a template, or a path into the template data (`copy`). */
export type ActionValue = { constant: unknown } | { template: Template } | { path: string[] };

/** An action ready to run. `entityInfo` actions write an info of the event's entity, the others an event field. */
export interface CompiledAction {
  type: string;
  /** The event field (Go name) or the info name. */
  name: string;
  description?: string;
  value: ActionValue;
  /** The Go fields of `.Event` the value reads, when that is all it reads (given those instead of the whole `.Event`, see `partialEventViews`). */
  eventFields?: readonly string[];
  entityInfo: boolean;
}

/** A valid rule, compiled once per version of the rule. */
export interface CompiledRule {
  id: string;
  type: RuleType;
  priority: number;
  patterns: CompiledPatterns<PatternEvent, PatternEntity>;
  /** Names under `.ExternalData` that receive the event's entity (`{"type": "entity"}` sources). */
  entitySources: string[];
  actions: CompiledAction[];
  onSuccess: RuleOutcome;
  onFailure: RuleOutcome;
}

/** What makes a rule one the engine cannot run. */
export class InvalidRule extends Error {}

function requiredString(action: Record<string, unknown>, key: string, index: number): string {
  const value = action[key];
  if (typeof value !== 'string' || value === '') throw new InvalidRule(`actions[${index}].${key} should be a non-empty string`);
  return value;
}

function optionalDescription(action: Record<string, unknown>, index: number): string | undefined {
  const value = action.description;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidRule(`actions[${index}].description should be a string`);
  return value;
}

function template(source: string, index: number): Template {
  try {
    return compile(source);
  } catch (err) {
    throw new InvalidRule(`actions[${index}].value is not a valid template: ${(err as Error).message}`);
  }
}

function compileAction(raw: unknown, index: number): CompiledAction {
  if (!isJsonObject(raw)) throw new InvalidRule(`actions[${index}] should be an object`);
  const type = raw.type;
  switch (type) {
    case 'set_field':
      if (!('value' in raw)) throw new InvalidRule(`actions[${index}].value is required`);
      return { type, name: requiredString(raw, 'name', index), value: { constant: raw.value }, entityInfo: false };
    case 'set_field_from_template':
      return { type, name: requiredString(raw, 'name', index), value: { template: template(requiredString(raw, 'value', index), index) }, entityInfo: false };
    case 'copy':
      return { type, name: requiredString(raw, 'to', index), value: { path: requiredString(raw, 'from', index).split('.') }, entityInfo: false };
    case 'set_entity_info':
      if (!('value' in raw)) throw new InvalidRule(`actions[${index}].value is required`);
      return { type, name: requiredString(raw, 'name', index), description: optionalDescription(raw, index), value: { constant: raw.value }, entityInfo: true };
    case 'set_entity_info_from_template':
      return {
        type,
        name: requiredString(raw, 'name', index),
        description: optionalDescription(raw, index),
        value: { template: template(requiredString(raw, 'value', index), index) },
        entityInfo: true,
      };
    case 'copy_to_entity_info':
      return { type, name: requiredString(raw, 'name', index), description: optionalDescription(raw, index), value: { path: requiredString(raw, 'from', index).split('.') }, entityInfo: true };
    default:
      throw new InvalidRule(`actions[${index}].type ${JSON.stringify(type)} is not one of set_field, set_field_from_template, set_entity_info_from_template, copy, set_entity_info, copy_to_entity_info`);
  }
}

function outcome(value: unknown, field: string): RuleOutcome {
  if (value === undefined || value === null || value === '') return 'pass';
  if (!(ruleOutcomes as readonly unknown[]).includes(value)) throw new InvalidRule(`${field} should be one of ${ruleOutcomes.join(', ')}`);
  return value as RuleOutcome;
}

/**
 * An enabled rule compiled for the pipeline; throws what makes it one the engine cannot run (a pattern, action,
 * template or data source), with the problem as its message.
 */
export function compileRule(record: RuleRecord): CompiledRule {
  if (!(ruleTypes as readonly unknown[]).includes(record.type)) throw new InvalidRule(`type should be one of ${ruleTypes.join(', ')}`);
  const type = record.type as RuleType;
  let patterns: CompiledPatterns<PatternEvent, PatternEntity>;
  try {
    patterns = record.patterns !== undefined && record.patterns !== null ? compileEventPatterns(record.patterns, 'patterns') : compileSingleEventPattern(record.pattern, 'pattern');
  } catch (err) {
    if (isPatternError(err)) throw new InvalidRule(err.detail ?? err.message);
    throw err;
  }
  const entitySources: string[] = [];
  const actions: CompiledAction[] = [];
  if (type === 'enrichment') {
    const external = record.external_data ?? {};
    if (!isJsonObject(external)) throw new InvalidRule('external_data should be an object');
    for (const [name, source] of Object.entries(external)) {
      if (!isJsonObject(source) || source.type !== 'entity') {
        throw new InvalidRule(`external_data.${name}: only the "entity" source is supported ({"type": "entity"})`);
      }
      entitySources.push(name);
    }
    if (!Array.isArray(record.actions) || record.actions.length === 0) throw new InvalidRule('an enrichment rule needs at least one action');
    record.actions.forEach((action, index) => actions.push(compileAction(action, index)));
    for (const action of actions) if (!('constant' in action.value)) action.eventFields = eventFieldsOf(action.value);
  }
  return {
    id: record._id,
    type,
    priority: typeof record.priority === 'number' ? record.priority : 0,
    patterns,
    entitySources,
    actions,
    onSuccess: outcome(record.on_success, 'on_success'),
    onFailure: outcome(record.on_failure, 'on_failure'),
  };
}

/**
 * The order the pipeline applies rules in: ascending priority (0 when absent), then id (by code unit).
 */
export function applicationOrder(a: RuleRecord, b: RuleRecord): number {
  const priority = (rule: RuleRecord): number => (typeof rule.priority === 'number' ? rule.priority : 0);
  return priority(a) - priority(b) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
}

/** The Go fields of `.Event` a template or `copy` value reads, when that is all it reads of the event. */
function eventFieldsOf(value: ActionValue): readonly string[] | undefined {
  if ('template' in value) return value.template.printedPaths && eventFieldsRead(value.template.printedPaths);
  if ('path' in value) return eventFieldsRead([value.path]);
  return undefined;
}

/**
 * Whether the actions of `rules` that read the event may be given only the Go fields they read (`eventFields`): only
 * when all of them read only Go fields. Not otherwise: the whole view, made at the first action that reads the event
 * and then kept up to date, lists the Go fields set after it after `ExtraInfos` (which `{{json .Event}}` shows).
 */
export function partialEventViews(rules: readonly CompiledRule[]): boolean {
  return rules.every((rule) => rule.actions.every((action) => 'constant' in action.value || action.eventFields !== undefined));
}
