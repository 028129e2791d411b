import type { Entity, EventEntities } from '@vigie/context-graph';
import { PipelineOrder, type DryRunContext, type PipelineContext, type PipelineStage } from '@vigie/events';
import type { JsonValue } from '@vigie/kernel';
import { EventPatternIndex, type RegexCaptures } from '@vigie/patterns';
import { partialEventViews, type CompiledAction, type CompiledRule, type RuleOutcome } from './compiled-rules.js';
import { entityView, eventFieldKey, eventView, partialEventView, refreshEventView, setEventField } from './event-fields.js';
import type { EventFilterRules } from './event-filter-rules.js';

const stageName = 'eventfilter';

/** What the rules of one event share: the entity once loaded, the infos actions gave it, the event as templates see it. */
interface FilterState {
  entity: Entity | null | undefined;
  infos: Record<string, JsonValue>;
  /** `.Event` of the templates, made at the first template and kept up to date as actions set fields. */
  view: Record<string, unknown> | undefined;
}

/** A step along `.`-separated keys of the template data (`ExternalData.entity`, `RegexMatch.Output.x`, `Event.Output`). */
function readPath(data: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Order 100: the event-filter rules (REFERENCE §5.2), by ascending priority. `drop` drops the event, `break` stops
 * the rules; an enrichment rule loads its external data, runs its actions in order (a failing action stops the
 * others; changes made before it stay) and continues as `on_success` or `on_failure` say. Entity infos set by
 * actions are written once, after the rules, unless the event was dropped.
 */
export function eventFilterStage(cache: EventFilterRules, entities: EventEntities): PipelineStage {
  /** Loads the event's entity for a rule with entity sources: the failure when it does not exist, else undefined. */
  async function loadEntity(context: PipelineContext, state: FilterState): Promise<string | undefined> {
    state.entity ??= await entities.get(context.entityId);
    return state.entity ? undefined : `the entity ${context.entityId} does not exist yet`;
  }

  /** Runs the actions of an enrichment rule whose external data is loaded: the failure, or undefined. */
  function enrich(rule: CompiledRule, context: PipelineContext, captures: RegexCaptures, state: FilterState, partialViews: boolean): string | undefined {
    // Built for each action: the entity an action changed is what the next one reads. An action that reads only
    // some Go fields of the event gets those when every action of the rules does; the whole view is made once, then
    // kept up to date.
    const data = (action: CompiledAction): Record<string, unknown> => {
      const externalData: Record<string, unknown> = {};
      for (const name of rule.entitySources) externalData[name] = entityView(state.entity as Entity);
      const view = partialViews && action.eventFields ? partialEventView(context.event, action.eventFields) : (state.view ??= eventView(context.event));
      return { Event: view, RegexMatch: captures, ExternalData: externalData };
    };
    for (const action of rule.actions) {
      const problem = runAction(action, context, state, data);
      if (problem !== undefined) return `action ${action.type} ${action.name}: ${problem}`;
      if (context.event.debug === true) context.trace(stageName, 'action applied', { rule: rule.id, action: action.type, name: action.name });
    }
    return undefined;
  }

  function runAction(action: CompiledAction, context: PipelineContext, state: FilterState, data: (action: CompiledAction) => Record<string, unknown>): string | undefined {
    let value: unknown;
    if ('constant' in action.value) value = action.value.constant;
    else if ('template' in action.value) {
      try {
        value = action.value.template.render(data(action));
      } catch (err) {
        return (err as Error).message;
      }
    } else {
      value = readPath(data(action), action.value.path);
      if (value === undefined) return `nothing at ${action.value.path.join('.')}`;
    }
    if (!action.entityInfo) {
      const problem = setEventField(context.event, action.name, value);
      if (problem === undefined && state.view) refreshEventView(state.view, context.event, action.name);
      return problem;
    }
    // The original wrote infos only on an entity an `entity` data source had loaded.
    if (!state.entity) return 'no entity loaded: the rule, or one applied before it, needs an external_data source of type entity';
    const info = { name: action.name, description: action.description ?? '', value: value as JsonValue };
    state.entity.infos[action.name] = info;
    state.infos[action.name] = info;
    return undefined;
  }

  // The rules indexed by the fields their patterns require, built again when the rule list changes (the cache answers
  // the same array until it reads the rules again); with, by rule position, whether the rule's actions set an indexed
  // field, which changes the candidates the rest of the way, and whether actions get partial views of the event.
  interface IndexedRules {
    rules: CompiledRule[];
    index: EventPatternIndex;
    setsIndexedField: boolean[];
    partialViews: boolean;
  }
  let indexed: IndexedRules | undefined;
  function indexOf(rules: CompiledRule[]): IndexedRules {
    if (indexed?.rules !== rules) {
      const index = new EventPatternIndex(rules.map((rule) => rule.patterns.requirements));
      const fields = new Set(index.fields);
      const setsIndexedField = rules.map((rule) => rule.actions.some((action) => !action.entityInfo && fields.has(eventFieldKey(action.name))));
      indexed = { rules, index, setsIndexedField, partialViews: partialEventViews(rules) };
    }
    return indexed;
  }

  /**
   * The rules applied to the event (`held`: the cache's fresh rules, read from it when undefined); in a dry run
   * (`dry`), what they do is told instead of the entity infos written.
   */
  async function applyRules(context: PipelineContext, held: CompiledRule[] | undefined, dry?: DryRunContext): Promise<void> {
    const rules = held ?? (await cache.rules());
    if (rules.length === 0) return;
    const { index, setsIndexedField, partialViews } = indexOf(rules);
    const state: FilterState = { entity: undefined, infos: {}, view: undefined };
    const cached = entities.cached(context.entityId);
    const current = (cached !== undefined ? cached : await entities.peek(context.entityId)) ?? undefined;
    const event = context.event;
    // Only the rules whose patterns can match the event run them.
    let candidates = index.candidates(event);
    let outcome: RuleOutcome = 'pass';
    for (let next = 0; next < candidates.length; next++) {
      const position = candidates[next] as number;
      const rule = rules[position] as CompiledRule;
      const captures = rule.type === 'enrichment' ? rule.patterns.match(context.event, current) : rule.patterns.matches(context.event, current) ? {} : null;
      if (!captures) continue;
      if (context.event.debug === true) context.trace(stageName, 'rule matches', { rule: rule.id, type: rule.type });
      dry?.would(`rule ${rule.id} matches`, { rule: rule.id, type: rule.type });
      if (rule.type === 'drop' || rule.type === 'break') {
        outcome = rule.type;
      } else {
        // Only a rule with entity sources waits (for the entity); the others run without a turn of the event loop.
        const failure = (rule.entitySources.length > 0 ? await loadEntity(context, state) : undefined) ?? enrich(rule, context, captures, state, partialViews);
        if (failure !== undefined) context.trace(stageName, 'enrichment failed', { rule: rule.id, problem: failure });
        outcome = failure === undefined ? rule.onSuccess : rule.onFailure;
        // The field it set changes which of the rules after it can match.
        if (setsIndexedField[position] === true) {
          candidates = index.candidates(event, position + 1);
          next = -1;
        }
      }
      if (outcome === 'drop') {
        context.drop(`dropped by event-filter rule ${rule.id}`);
        break;
      }
      if (outcome === 'break') break;
    }
    if (context.dropped === undefined && state.entity && Object.keys(state.infos).length > 0) {
      if (dry) dry.would('set entity infos', { entity: state.entity._id, infos: state.infos });
      else await entities.setInfos(state.entity._id, state.infos);
    }
    if (dry && context.dropped !== undefined) dry.would('drop the event', { reason: context.dropped });
  }

  return {
    name: stageName,
    order: PipelineOrder.eventFilter,
    process(context) {
      // With no rule, held and fresh, the event goes on synchronously (ADR 0025).
      const rules = cache.fresh();
      if (rules?.length === 0) return;
      return applyRules(context, rules);
    },
    async dryRun(context) {
      const before = JSON.stringify(context.event);
      await applyRules(context, undefined, context);
      if (JSON.stringify(context.event) !== before) context.would('change the event', { event: context.event });
    },
  };
}
