import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { RuleCache } from '@vigie/feature-kit';
import { compileAlarmPatterns, compileEntityPatterns, compileEventPatterns, type CompiledPatterns, type PatternAlarm, type PatternEntity, type PatternEvent } from '@vigie/patterns';
import { compile, type Template } from '@vigie/templates';
import { MetaAlarmRuleRepository, type MetaAlarmRuleRecord } from './meta-alarm-rule-repository.js';

/** When a grouping rule (timebased, complex) creates its meta-alarm. */
export type Threshold = { kind: 'count'; count: number } | { kind: 'rate'; rate: number };

/** A rule ready to be applied. */
export interface CompiledRule {
  record: MetaAlarmRuleRecord;
  /** `patterns.entity_patterns`: which alarms' entities the rule looks at at all. */
  scope: CompiledPatterns<PatternEntity | undefined>;
  /** `config.alarm_patterns` (and the 3.x `attribute_patterns`, read as alarm patterns). */
  alarmPatterns: CompiledPatterns<PatternAlarm | undefined>[];
  entityPatterns: CompiledPatterns<PatternEntity | undefined>;
  eventPatterns: CompiledPatterns<PatternEvent, PatternEntity> | null;
  /** The entities a rate is computed over: `total_entity_patterns`, else `entity_patterns`. */
  totalPatterns: CompiledPatterns<PatternEntity | undefined>;
  /** Grouping rules only. */
  threshold: Threshold | null;
  /** Length of a group's window, seconds. */
  intervalSec: number;
  output: Template | null;
}

/** A group's window when the rule gives no `time_interval` (the original's default). */
export const defaultIntervalSec = 86_400;

/**
 * The rules the correlation engine applies, compiled once per change. A rule that cannot work (a complex rule with
 * both thresholds or neither, a pattern that does not compile) is left out, and why is logged once per version.
 */
@injectable()
export class RuleCatalog {
  readonly #rules: RuleCache<MetaAlarmRuleRecord, CompiledRule>;

  constructor(
    @inject(MetaAlarmRuleRepository) private readonly repository: MetaAlarmRuleRepository,
    @injectRef(kernelRefs.clock) clock: Clock,
    @injectRef(kernelRefs.logger) logger: Logger,
  ) {
    this.#rules = new RuleCache({ source: repository, compile: compileRule, kind: 'meta-alarm rule', clock, logger });
  }

  rules(): Promise<CompiledRule[]> {
    return this.#rules.rules();
  }

  /** Whether no rule exists, known without reading the store (false when the rules held need reading again). */
  knownEmpty(): boolean {
    return this.#rules.fresh()?.length === 0;
  }

  /** The rule as stored, even one the engine leaves out (a meta-alarm keeps the id of a rule that may be gone). */
  get(id: string): Promise<MetaAlarmRuleRecord | null> {
    return this.repository.get(id);
  }
}

/** The rule ready to apply; throws when it cannot be. */
export function compileRule(record: MetaAlarmRuleRecord): CompiledRule {
  const config = record.config ?? {};
  return {
    record,
    scope: compileEntityPatterns(record.patterns?.entity_patterns ?? null, 'patterns.entity_patterns'),
    alarmPatterns: [
      compileAlarmPatterns(config.alarm_patterns ?? null, 'config.alarm_patterns'),
      compileAlarmPatterns(config.attribute_patterns ?? null, 'config.attribute_patterns'),
    ],
    entityPatterns: compileEntityPatterns(config.entity_patterns ?? null, 'config.entity_patterns'),
    eventPatterns: config.event_patterns ? compileEventPatterns(config.event_patterns, 'config.event_patterns') : null,
    totalPatterns: compileEntityPatterns(config.total_entity_patterns ?? config.entity_patterns ?? null, 'config.total_entity_patterns'),
    threshold: thresholdOf(record),
    intervalSec: config.time_interval && config.time_interval > 0 ? config.time_interval : defaultIntervalSec,
    output: record.output_template ? compile(record.output_template) : null,
  };
}

/** The grouping threshold of a rule; throws why a complex rule cannot fire (REFERENCE §5.7). */
function thresholdOf(record: MetaAlarmRuleRecord): Threshold | null {
  const config = record.config ?? {};
  if (record.type === 'timebased') return { kind: 'count', count: 2 };
  if (record.type !== 'complex') return null;
  const count = config.threshold_count;
  const rate = config.threshold_rate;
  if (count !== undefined && rate !== undefined) throw new Error('config.threshold_count and config.threshold_rate are mutually exclusive: the rule has both');
  if (count !== undefined) return { kind: 'count', count };
  if (rate !== undefined) return { kind: 'rate', rate };
  throw new Error('a complex rule needs config.threshold_count or config.threshold_rate: the rule has neither');
}
