import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { durationSeconds } from '@vigie/input';
import { RuleCache } from '@vigie/feature-kit';
import { RuleOperationRunner } from '@vigie/actions';
import { alarmReaderRef, openAlarmPreviewRef, type Alarm, type AlarmReader, type OpenAlarmPreview, type PreviewAlarm } from '@vigie/alarms';
import type { PreviewPage } from '@vigie/rule-schemas';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import { compileAlarmPatterns, compileEntityPatterns, ruleProblem, type CompiledPatterns, type PatternAlarm, type PatternEntity } from '@vigie/patterns';
import { IdleMarkRepository, ruleKey, type IdleMark } from './idle-marks.js';
import { IdleRuleRepository, type IdleRuleRecord } from './idle-rule-repository.js';

interface CompiledRule {
  record: IdleRuleRecord;
  durationSec: number;
  alarmPatterns: CompiledPatterns<PatternAlarm | undefined>;
  entityPatterns: CompiledPatterns<PatternEntity | undefined>;
}

/** An open alarm an idle rule selects, and when it is (or will be) idle for the rule's duration. */
export interface IdleRulePreviewEntry {
  /** When its idle period started (epoch seconds). */
  idle_since: number;
  /** When the rule fires on it, in the absence of new events or changes: now or earlier when already idle. */
  idle_at: number;
}

/** What an idle rule would do now: the open alarms it selects, and how many of them are idle already. */
export interface IdleRulePreview extends PreviewPage<PreviewAlarm & IdleRulePreviewEntry> {
  /** How many of the selected alarms are idle already: the rule's first beat applies its operation to them. */
  idle_now: number;
  /** Why the engine would skip the rule (its type, duration or a pattern), when it would. */
  problem?: string;
}

/** When the alarm's idle period started: `last_event` counts from its last event, `last_update` from its last change. */
function idleSince(alarm: Alarm, mark: IdleMark | undefined, lastEvent: boolean): number {
  return lastEvent ? Math.max(alarm.v.last_event_date, mark?.last_event ?? 0) : alarm.v.last_update_date;
}

/** What one beat did, for logs and tests. */
export interface IdleBeatReport {
  fired: number;
  forgotten: number;
}

/** Marks of entities without an open alarm are removed every this many beats. */
const beatsBetweenCleanups = 60;

/**
 * The idle-rule engine (REFERENCE §5.3), run every `[engine] beat_interval`: each rule's operation is applied once to
 * each open alarm that has been idle for the rule's duration and matches its alarm and entity patterns. `last_event`
 * counts from the later of `v.last_event_date` and the last event on the entity; `last_update` from
 * `v.last_update_date`. After firing, a rule waits for a new event on the entity before it fires on the alarm again.
 */
@injectable()
export class IdleRuleEngine {
  readonly #rules: RuleCache<IdleRuleRecord, CompiledRule>;
  /** Whether any rule exists (as of the last beat, or the last write through this process's routes). */
  #rulesExist = false;
  #rulesExistWrites = -1;
  #beats = 0;

  constructor(
    @inject(IdleRuleRepository) private readonly rules: IdleRuleRepository,
    @inject(IdleMarkRepository) private readonly marks: IdleMarkRepository,
    @inject(RuleOperationRunner) private readonly runner: RuleOperationRunner,
    @injectRef(alarmReaderRef) private readonly alarms: AlarmReader,
    @injectRef(openAlarmPreviewRef) private readonly openAlarms: OpenAlarmPreview,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {
    this.#rules = new RuleCache({ source: rules, compile: compileRule, kind: 'idle rule', clock, logger });
  }

  /**
   * The pipeline stage's part: an event on an entity with an open alarm starts a new idle period. Nothing (no
   * promise) when no rule exists and no write since says otherwise: the stage then costs nothing per event.
   */
  eventSeen(entityId: string, acceptedAtMs: number): Promise<void> | undefined {
    if (this.#rulesExistWrites === this.rules.writes && !this.#rulesExist) return undefined;
    return this.#eventSeen(entityId, acceptedAtMs);
  }

  async #eventSeen(entityId: string, acceptedAtMs: number): Promise<void> {
    if (this.#rulesExistWrites !== this.rules.writes) {
      this.#rulesExistWrites = this.rules.writes;
      this.#rulesExist = (await this.rules.count()) > 0;
    }
    if (!this.#rulesExist) return;
    if ((await this.alarms.openAlarm(entityId)) === null) return;
    await this.marks.eventSeen(entityId, Math.floor(acceptedAtMs / 1000));
  }

  async beat(): Promise<IdleBeatReport> {
    const report: IdleBeatReport = { fired: 0, forgotten: 0 };
    // Each beat reads the rules (cheap, and as fresh as the store even without change notifications).
    this.#rules.invalidate();
    const rules = await this.#rules.rules();
    this.#rulesExist = rules.length > 0;
    const nowSec = this.clock.nowSec();
    for (const rule of rules) report.fired += await this.#run(rule, nowSec);
    if (++this.#beats % beatsBetweenCleanups === 0) {
      const open = await this.alarms.find({ 'v.resolved': null }, { fields: { d: 1 } });
      report.forgotten = await this.marks.forgetAllBut(new Set(open.map((alarm) => alarm.d)));
    }
    if (report.fired > 0) this.logger.debug({ ...report }, 'idle rules beat');
    return report;
  }

  async #run(rule: CompiledRule, nowSec: number): Promise<number> {
    const lastEvent = rule.record.type === 'last_event';
    const field = lastEvent ? 'last_event_date' : 'last_update_date';
    const candidates = await this.alarms.find({ 'v.resolved': null, [`v.${field}`]: { $lte: nowSec - rule.durationSec } }, { fields: { 'v.steps': 0 } });
    if (candidates.length === 0) return 0;
    const marks = await this.marks.byEntity(candidates.map((alarm) => alarm.d));
    const idle = candidates.filter((alarm) => this.#idle(rule, alarm, marks.get(alarm.d), lastEvent, nowSec) && rule.alarmPatterns.matches(alarm as PatternAlarm));
    const entities = rule.entityPatterns.matchesEverything ? null : await this.entities.getMany(idle.map((alarm) => alarm.d));
    let fired = 0;
    for (const alarm of idle) {
      if (entities && !rule.entityPatterns.matches((entities.get(alarm.d) ?? undefined) as PatternEntity | undefined)) continue;
      // Marked first, even when the operation then changes nothing (its reason is logged): the rule waits for a new
      // idle period, and another node beating at the same time does not apply it a second time.
      if (!(await this.marks.claim(alarm.d, rule.record._id, alarm._id))) continue;
      await this.runner.run(alarm.d, rule.record.operation, { rule: `idle rule ${rule.record._id}`, defaultAuthor: 'system' });
      fired++;
    }
    return fired;
  }

  #idle(rule: CompiledRule, alarm: Alarm, mark: IdleMark | undefined, lastEvent: boolean, nowSec: number): boolean {
    if (mark?.fired?.[ruleKey(rule.record._id)] === alarm._id) return false;
    return nowSec - idleSince(alarm, mark, lastEvent) >= rule.durationSec;
  }

  /**
   * What the rule would do if saved now (nothing stored): the open alarms its patterns select, each with the time
   * it is idle from, as the beat computes it. A new rule has fired on no alarm, so every alarm idle for the
   * duration is one its first beat acts on.
   */
  async preview(record: IdleRuleRecord, limit: number): Promise<IdleRulePreview> {
    let rule: CompiledRule;
    try {
      rule = compileRule(record);
    } catch (err) {
      return { subject: 'alarms', count: 0, scanned: 0, data: [], idle_now: 0, problem: ruleProblem(err) };
    }
    const lastEvent = record.type === 'last_event';
    const marks = lastEvent ? await this.marks.all() : new Map<string, IdleMark>();
    const nowSec = this.clock.nowSec();
    let idleNow = 0;
    const idleAt = (alarm: Alarm) => idleSince(alarm, marks.get(alarm.d), lastEvent) + rule.durationSec;
    const page = await this.openAlarms.select<IdleRulePreviewEntry>({
      limit,
      needsEntity: !rule.entityPatterns.matchesEverything,
      selects: (alarm, entity) => {
        const selected = rule.alarmPatterns.matches(alarm as PatternAlarm) && (rule.entityPatterns.matchesEverything || rule.entityPatterns.matches(entity as PatternEntity | undefined));
        if (selected && idleAt(alarm) <= nowSec) idleNow++;
        return selected;
      },
      annotate: (alarm) => ({ idle_since: idleAt(alarm) - rule.durationSec, idle_at: idleAt(alarm) }),
    });
    return { ...page, idle_now: idleNow };
  }
}

/** The rule ready to apply; throws when it cannot be. */
function compileRule(record: IdleRuleRecord): CompiledRule {
  const durationSec = durationSeconds(record.duration);
  if (durationSec === null) throw new Error(`duration ${JSON.stringify(record.duration)} is not a duration`);
  if (record.type !== 'last_event' && record.type !== 'last_update') throw new Error(`unknown type ${JSON.stringify(record.type)}`);
  return {
    record,
    durationSec,
    alarmPatterns: compileAlarmPatterns(record.alarm_patterns, 'alarm_patterns'),
    entityPatterns: compileEntityPatterns(record.entity_patterns, 'entity_patterns'),
  };
}
