import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, errorDetail, type Clock, type Logger } from '@vigie/kernel';
import { RuleCache, SerialQueues } from '@vigie/feature-kit';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef, type Alarm, type AlarmChangeService, type AlarmReader, type AlarmTriggerEvent, type OpenAlarmPreview, type PreviewAlarm } from '@vigie/alarms';
import type { PreviewPage } from '@vigie/rule-schemas';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import { compileAlarmPatterns, compileEntityPatterns, type CompiledPatterns, type PatternAlarm, type PatternEntity } from '@vigie/patterns';
import { compile, type Template } from '@vigie/templates';
import { alarmView, entityView } from '@vigie/webhooks';
import { DynamicInfosRepository, type DynamicInfosRecord } from './dynamic-infos-repository.js';

/**
 * Dynamic-info values are Go templates with only Go's built-in functions and `lowercase`, `uppercase`, `split`, `trim`
 * (REFERENCE §5.11): Vigie's other template functions are left out.
 */
export const excludedTemplateFunctions = ['json', 'json_unquote', 'replace', 'formattedDate'] as const;

/** The rules are read again at least this often (writes of other nodes show at once when the store notifies them). */
const rulesRefreshMs = 5000;

interface CompiledInfo {
  name: string;
  value: Template | string | number | boolean | null;
}

interface CompiledRule {
  id: string;
  alarmPatterns: CompiledPatterns<PatternAlarm | undefined>;
  entityPatterns: CompiledPatterns<PatternEntity | undefined>;
  infos: CompiledInfo[];
  /** Whether a value is a template (and so may read `.Entity`). */
  templated: boolean;
}

type EntityDoc = Record<string, unknown>;

/** What a dynamic-infos rule would do now: the open alarms it selects and the infos it would set on each. */
export interface DynamicInfosPreview extends PreviewPage<PreviewAlarm & { infos: Record<string, unknown> }> {
  /** Why the engine would skip the rule, when it would. */
  problem?: string;
}

/**
 * The dynamic-infos engine (REFERENCE §5.11): after every stored change of an alarm, `v.infos` is computed again —
 * `v.infos.<rule id>` = `{<info name>: <rendered value>}` for each rule whose alarm and entity patterns match the
 * alarm, and nothing else — and stored when it differs. Changes caused by events are seen by the pipeline stage
 * (order 700, after the alarms stage); the others (beats, rule engines, operations on other entities) through
 * `alarms.trigger`. The infos are written with the `dynamicinfos` alarm operation, which has no step and no trigger,
 * so they never cause another evaluation.
 */
@injectable()
export class DynamicInfosEngine {
  readonly #rules: RuleCache<DynamicInfosRecord, CompiledRule>;
  /** Rendering failures already logged, per rule version and info. */
  readonly #reported = new Set<string>();
  /** Evaluations one at a time per entity, each reading the latest alarm. */
  readonly #queues = new SerialQueues();
  readonly #changesSeen = new WeakSet<Alarm>();

  constructor(
    @inject(DynamicInfosRepository) repository: DynamicInfosRepository,
    @injectRef(alarmChangesRef) private readonly changes: AlarmChangeService,
    @injectRef(alarmReaderRef) private readonly alarms: AlarmReader,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(openAlarmPreviewRef) private readonly openAlarms: OpenAlarmPreview,
    @injectRef(kernelRefs.clock) clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {
    this.#rules = new RuleCache({ source: repository, compile: compileRule, kind: 'dynamic infos rule', refreshMs: rulesRefreshMs, clock, logger });
  }

  /**
   * The pipeline stage's part: the event changed the entity's alarm (`changed` is that alarm as stored). Without
   * rules, and no infos on the alarm to take away, it returns nothing at once (known without reading the store): the
   * stage costs no promise per event.
   */
  afterChange(entityId: string, changed: Alarm, entity?: EntityDoc): Promise<void> | undefined {
    if (this.#rules.fresh()?.length === 0 && !hasInfos(changed)) return undefined;
    return this.#afterChange(entityId, changed, entity);
  }

  async #afterChange(entityId: string, changed: Alarm, entity?: EntityDoc): Promise<void> {
    const rules = await this.#rules.rules();
    if (rules.length === 0 && !hasInfos(changed)) return;
    await this.refresh(entityId, entity);
  }

  /** The `alarms.trigger` part, for changes no event caused (the stage sees those); never awaited by the bus. */
  onTrigger(payload: AlarmTriggerEvent): void {
    if (payload.eventId !== undefined || payload.trigger === 'resolve') return;
    // One evaluation per change, whatever its number of triggers (they share the stored alarm).
    if (this.#changesSeen.has(payload.alarm)) return;
    this.#changesSeen.add(payload.alarm);
    void this.refresh(payload.alarm.d, payload.entity).catch((err: unknown) => this.logger.error({ err, alarm: payload.alarm._id }, 'dynamic infos engine failed'));
  }

  /** Computes the entity's open alarm's infos again and stores them if they differ. */
  refresh(entityId: string, entity?: EntityDoc): Promise<void> {
    return this.#queues.run(entityId, () => this.#refresh(entityId, entity));
  }

  /**
   * For dry runs: the infos the rules would give an alarm as a change leaves it (not stored), or null when they are
   * the ones it holds; nothing is written.
   */
  async wouldSet(changed: Alarm, entity?: EntityDoc): Promise<Record<string, Record<string, unknown>> | null> {
    const rules = await this.#rules.rules();
    if (rules.length === 0 && !hasInfos(changed)) return null;
    let known: EntityDoc | null | undefined = entity;
    const infos = await this.#infosOf(rules, changed, async () => (known ??= (await this.entities.get(changed.d)) as EntityDoc | null));
    return JSON.stringify(infos) === JSON.stringify(changed.v.infos ?? {}) ? null : infos;
  }

  /** The infos of the rules whose patterns match the alarm (and its entity, read only when a rule needs it). */
  async #infosOf(rules: readonly CompiledRule[], alarm: Alarm, entityOf: () => Promise<EntityDoc | null>): Promise<Record<string, Record<string, unknown>>> {
    const infos: Record<string, Record<string, unknown>> = {};
    for (const rule of rules) {
      if (!rule.alarmPatterns.matches(alarm as PatternAlarm)) continue;
      if (!rule.entityPatterns.matchesEverything && !rule.entityPatterns.matches(((await entityOf()) ?? undefined) as PatternEntity | undefined)) continue;
      infos[rule.id] = this.#render(rule, alarm, rule.templated ? await entityOf() : null);
    }
    return infos;
  }

  async #refresh(entityId: string, knownEntity?: EntityDoc): Promise<void> {
    const rules = await this.#rules.rules();
    const alarm = await this.alarms.openAlarm(entityId);
    if (!alarm || (rules.length === 0 && !hasInfos(alarm))) return;
    let entity: EntityDoc | null | undefined = knownEntity;
    const entityOf = async (): Promise<EntityDoc | null> => {
      entity ??= (await this.entities.get(entityId)) as EntityDoc | null;
      return entity;
    };
    const infos = await this.#infosOf(rules, alarm, entityOf);
    if (JSON.stringify(infos) === JSON.stringify(alarm.v.infos ?? {})) return;
    await this.changes.apply(entityId, { type: 'dynamicinfos', infos, initiator: 'system' }, {}, (reason) =>
      this.logger.debug({ entityId, reason }, 'dynamic infos unchanged'),
    );
  }

  /**
   * What the rule would do if saved now (nothing stored): the open alarms its patterns select, each with the infos
   * it would set (`v.infos.<rule id>`), rendered as the engine renders them.
   */
  async preview(record: DynamicInfosRecord, limit: number): Promise<DynamicInfosPreview> {
    let rule: CompiledRule;
    try {
      rule = compileRule(record);
    } catch (err) {
      return { subject: 'alarms', count: 0, scanned: 0, data: [], problem: errorDetail(err) };
    }
    return this.openAlarms.select({
      limit,
      needsEntity: rule.templated || !rule.entityPatterns.matchesEverything,
      selects: (alarm, entity) => rule.alarmPatterns.matches(alarm as PatternAlarm) && (rule.entityPatterns.matchesEverything || rule.entityPatterns.matches(entity as PatternEntity | undefined)),
      annotate: (alarm, entity) => ({ infos: this.#render(rule, alarm, entity ?? null) }),
    });
  }

  #render(rule: CompiledRule, alarm: Alarm, entity: EntityDoc | null): Record<string, unknown> {
    const rendered: Record<string, unknown> = {};
    const data = rule.templated ? { Alarm: alarmView(alarm), Entity: entityView(entity) } : null;
    for (const info of rule.infos) {
      if (!isTemplate(info.value)) {
        rendered[info.name] = info.value;
        continue;
      }
      try {
        rendered[info.name] = info.value.render(data);
      } catch (err) {
        // The info is left out; the rule's other infos still apply.
        const key = `${rule.id}\u0000${info.name}\u0000${info.value.source}`;
        if (this.#reported.has(key)) continue;
        this.#reported.add(key);
        this.logger.info({ rule: rule.id, info: info.name, alarm: alarm._id, problem: errorDetail(err) }, 'dynamic info left out: its value could not be rendered');
      }
    }
    return rendered;
  }
}

/** The rule ready to apply; throws when it cannot be. */
function compileRule(record: DynamicInfosRecord): CompiledRule {
  const infos = record.infos.map((info): CompiledInfo => {
    if (typeof info.value !== 'string' || !info.value.includes('{{')) return { name: info.name, value: info.value };
    try {
      return { name: info.name, value: compile(info.value, { exclude: excludedTemplateFunctions }) };
    } catch (err) {
      throw new Error(`info ${info.name}: ${errorDetail(err)}`);
    }
  });
  return {
    id: record._id,
    alarmPatterns: compileAlarmPatterns(record.alarm_patterns, 'alarm_patterns'),
    entityPatterns: compileEntityPatterns(record.entity_patterns, 'entity_patterns'),
    infos,
    templated: infos.some((info) => isTemplate(info.value)),
  };
}

function isTemplate(value: CompiledInfo['value']): value is Template {
  return typeof value === 'object' && value !== null;
}

function hasInfos(alarm: Alarm): boolean {
  return typeof alarm.v.infos === 'object' && alarm.v.infos !== null && Object.keys(alarm.v.infos).length > 0;
}
