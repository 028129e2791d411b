import { inject, injectable } from 'tsyringe';
import { assertSafeFilter } from '@vigie/filter-safety';
import { injectRef, kernelRefs, errorDetail, type Clock, type Filter, type Logger } from '@vigie/kernel';
import { RuleCache } from '@vigie/feature-kit';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef, type Alarm, type AlarmChangeService, type AlarmOperation, type AlarmReader, type OpenAlarmPreview, type PreviewAlarm } from '@vigie/alarms';
import type { PreviewPage } from '@vigie/rule-schemas';
import { activePbehaviorsRef, type ActivePbehaviors, type ActivePbehaviorsAt } from '@vigie/pbehaviors';
import { alarmFiltersConfig, type AlarmFiltersConfig } from './config.js';
import { AlarmFilterRepository, type AlarmFilterRecord } from './alarm-filter-repository.js';
import { alarmFilterTasks } from './schemas.js';

type TaskName = (typeof alarmFilterTasks)[number];

interface CompiledFilter {
  record: AlarmFilterRecord;
  entityFilter: Filter;
  /** Null when the condition is empty. */
  condition: Filter | null;
}

/** What one beat did, for logs and tests. */
export interface AlarmFilterBeatReport {
  /** Runs recorded (each ran the filter's tasks once on one alarm). */
  runs: number;
  /** Alarms whose `v.alarmfilter.next_run` changed. */
  timersChanged: number;
}

/** What an alarm filter would do now: the open alarms it selects, when each is due, how many are due already. */
export interface AlarmFilterPreview extends PreviewPage<PreviewAlarm & { due_at?: number }> {
  /** How many of the selected alarms are due already: the first beat runs the tasks on them. */
  due_now: number;
  /** Why the engine would skip the filter, when it would. */
  problem?: string;
}

/** Snooze length of the `snooze` task: the original's default (the synthetic event has no duration). */
const snoozeSeconds = 300;
const maxState = 3;
const openAlarms: Filter = { 'v.resolved': null };

/** The next run each filter plans for one alarm; the alarm shows the earliest. */
interface AlarmTimers {
  entityId: string;
  stored: number | null;
  byFilter: Map<string, number | null>;
}

function runsOf(alarm: Alarm, filterId: string): number[] {
  const record = alarm.v.alarmfilter as { runs?: Record<string, unknown> } | undefined;
  const runs = record?.runs?.[filterId];
  return Array.isArray(runs) ? runs.filter((run): run is number => typeof run === 'number') : [];
}

function storedNextRun(alarm: Alarm): number | null {
  const nextRun = (alarm.v.alarmfilter as { next_run?: unknown } | undefined)?.next_run;
  return typeof nextRun === 'number' ? nextRun : null;
}

/** The message of the alarm's latest step (the latest in the list among equal times): `{old}` of `output_format`. */
function latestMessage(alarm: Alarm): string {
  let latest = alarm.v.steps[0];
  for (const step of alarm.v.steps) if (!latest || step.t >= latest.t) latest = step;
  return latest?.m ?? '';
}

/**
 * The alarm-filter engine (REFERENCE §5.6), run every `[engine] beat_interval`. For each filter, the open alarms its
 * `entity_filter` selects that also match its `condition` are due `limit` seconds after their creation (or after the
 * entity's last pbehavior stop with `postpone_if_active_pbehavior`), then `limit` seconds after the previous run, up
 * to `repeat` runs. A run is first recorded in `v.alarmfilter.runs[<filter id>]` under the entity's lock (so two
 * nodes never run it twice), then the tasks are applied in order through the alarm-change service, as a check event
 * built from the alarm would: output from `output_format` (`{old}` = the latest step's message), author from
 * `[alarm-filters] author`. Each alarm shows its earliest planned run in `v.alarmfilter.next_run`.
 */
@injectable()
export class AlarmFilterEngine {
  readonly #filters: RuleCache<AlarmFilterRecord, CompiledFilter>;
  /** Runs whose tasks changed nothing, logged once per filter version (its compiled form) and alarm. */
  readonly #reported = new WeakMap<CompiledFilter, Set<string>>();
  readonly #author: string;
  /** Whether an open alarm may show a timer (unknown at start): without filters nor timers, a beat reads nothing. */
  #timersShown = true;

  constructor(
    @inject(AlarmFilterRepository) filters: AlarmFilterRepository,
    @injectRef(alarmChangesRef) private readonly changes: AlarmChangeService,
    @injectRef(alarmReaderRef) private readonly alarms: AlarmReader,
    @injectRef(openAlarmPreviewRef) private readonly openAlarmPreview: OpenAlarmPreview,
    @injectRef(activePbehaviorsRef) private readonly pbehaviors: ActivePbehaviors,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
    @injectRef(alarmFiltersConfig.ref) config: AlarmFiltersConfig,
  ) {
    this.#author = config.author;
    this.#filters = new RuleCache({ source: filters, compile: compileFilter, kind: 'alarm filter', logField: 'filter', clock, logger });
  }

  async beat(): Promise<AlarmFilterBeatReport> {
    const report: AlarmFilterBeatReport = { runs: 0, timersChanged: 0 };
    const nowSec = this.clock.nowSec();
    // Each beat reads the filters (cheap, and as fresh as the store even without change notifications).
    this.#filters.invalidate();
    const filters = await this.#filters.rules();
    if (filters.length === 0 && !this.#timersShown) return report;
    const timers = new Map<string, AlarmTimers>();
    const pbehaviors = filters.some((filter) => filter.record.postpone_if_active_pbehavior) ? await this.pbehaviors.at(nowSec) : null;
    for (const filter of filters) report.runs += await this.#run(filter, nowSec, pbehaviors, timers);
    report.timersChanged = await this.#showTimers(timers);
    if (report.runs > 0 || report.timersChanged > 0) this.logger.debug({ ...report }, 'alarm filters beat');
    return report;
  }

  async #run(filter: CompiledFilter, nowSec: number, pbehaviors: ActivePbehaviorsAt | null, timers: Map<string, AlarmTimers>): Promise<number> {
    const { record } = filter;
    const selected = await this.alarms.find({ $and: [filter.entityFilter, openAlarms] }, { fields: { 'v.steps': 0 } });
    if (selected.length === 0) return 0;
    const conditioned = filter.condition
      ? new Set((await this.alarms.find({ $and: [filter.entityFilter, filter.condition, openAlarms] }, { fields: { _id: 1 } })).map((alarm) => alarm._id))
      : null;
    let ran = 0;
    for (const alarm of selected) {
      if (conditioned && !conditioned.has(alarm._id)) continue;
      const runs = runsOf(alarm, record._id);
      if (runs.length >= record.repeat) continue;
      const timer = this.#timers(timers, alarm);
      timer.byFilter.set(record._id, (runs.length > 0 ? Math.max(...runs) : Number(alarm.v.state.t)) + record.limit);
      const lastStop = record.postpone_if_active_pbehavior ? (pbehaviors?.lastStop(alarm.d) ?? 0) : 0;
      if (Math.max(alarm.t, lastStop) + record.limit > nowSec) continue;
      if (runs.length > 0 && Math.max(...runs, lastStop) + record.limit > nowSec) continue;
      const nextRun = await this.#execute(filter, alarm, runs.length, nowSec);
      if (nextRun === undefined) continue;
      ran++;
      timer.byFilter.set(record._id, nextRun);
      timer.stored = nextRun;
    }
    return ran;
  }

  #timers(timers: Map<string, AlarmTimers>, alarm: Alarm): AlarmTimers {
    let timer = timers.get(alarm._id);
    if (!timer) {
      timer = { entityId: alarm.d, stored: storedNextRun(alarm), byFilter: new Map() };
      timers.set(alarm._id, timer);
    }
    return timer;
  }

  /**
   * One run of the filter's tasks on the alarm. Resolves with the next run the claim planned (null: none), or
   * undefined when the run did not happen (the alarm changed, or another node ran it).
   */
  async #execute(filter: CompiledFilter, alarm: Alarm, runsBefore: number, nowSec: number): Promise<number | null | undefined> {
    const { record } = filter;
    const still = await this.alarms.find({ $and: [{ _id: alarm._id }, filter.entityFilter, ...(filter.condition ? [filter.condition] : []), openAlarms] }, { limit: 1, fields: { _id: 1 } });
    if (still.length === 0) return undefined;
    const nextRun = runsBefore + 1 < record.repeat ? nowSec + record.limit : null;
    let reason = '';
    const claim = await this.changes.apply(
      alarm.d,
      { type: 'alarmfilter', alarmFilter: { run: { filter: record._id, repeat: record.repeat, limitSec: record.limit }, nextRun }, initiator: 'system' },
      {},
      (why) => {
        reason = why;
      },
    );
    if (claim === null || claim.alarm._id !== alarm._id) {
      this.logger.debug({ filter: record._id, alarm: alarm._id, reason }, 'alarm filter run not claimed');
      return undefined;
    }
    const output = (record.output_format ?? '{old}').replaceAll('{old}', latestMessage(claim.alarm));
    let current = claim.alarm;
    const unchanged: string[] = [];
    let applied = 0;
    for (const task of record.tasks as TaskName[]) {
      const operation = this.#operation(task, current, output);
      if (typeof operation === 'string') {
        unchanged.push(`${task}: ${operation}`);
        continue;
      }
      const change = await this.changes.apply(alarm.d, operation, {}, (why) => unchanged.push(`${task}: ${why}`));
      if (change === null) continue;
      if (change.alarm._id !== alarm._id) break;
      current = change.alarm;
      applied++;
    }
    this.logger.debug({ filter: record._id, alarm: alarm._id, applied }, 'alarm filter ran');
    let reported = this.#reported.get(filter);
    if (!reported) this.#reported.set(filter, (reported = new Set()));
    if (applied === 0 && !reported.has(alarm._id)) {
      reported.add(alarm._id);
      this.logger.info({ filter: record._id, alarm: alarm._id, entityId: alarm.d, reasons: unchanged }, 'alarm filter run changed nothing');
    }
    return nextRun;
  }

  /** The alarm operation of a task on the alarm as it is now, or why the task cannot apply. */
  #operation(task: TaskName, alarm: Alarm, output: string): AlarmOperation | string {
    const base = { author: this.#author, output, initiator: 'system' };
    const state = Number(alarm.v.state.val);
    switch (task) {
      case 'alerts.useraction.ack':
      case 'alerts.useraction.ackremove':
      case 'alerts.useraction.cancel':
      case 'alerts.useraction.uncancel':
      case 'alerts.useraction.comment':
      case 'alerts.useraction.done':
      case 'alerts.useraction.declareticket':
        return { ...base, type: task.slice('alerts.useraction.'.length) as AlarmOperation['type'] };
      case 'alerts.useraction.assocticket':
        return 'an alarm filter has no ticket number to associate';
      case 'alerts.useraction.changestate':
      case 'alerts.useraction.keepstate':
        // The synthetic event carries the alarm's current state: the state is kept (locked) as it is.
        return { ...base, type: task === 'alerts.useraction.changestate' ? 'changestate' : 'keepstate', state };
      case 'alerts.useraction.snooze':
        return { ...base, type: 'snooze', duration: snoozeSeconds };
      case 'alerts.systemaction.state_increase':
        if (state >= maxState) return 'the state is already critical';
        return { ...base, type: 'check', state: state + 1 };
      case 'alerts.systemaction.state_decrease':
        if (state <= 0) return 'the state is already ok';
        return { ...base, type: 'check', state: state - 1 };
      case 'alerts.systemaction.status_increase':
        return { ...base, type: 'alarmfilterstatus', statusShift: 1 };
      case 'alerts.systemaction.status_decrease':
        return { ...base, type: 'alarmfilterstatus', statusShift: -1 };
    }
  }

  /**
   * Stores each alarm's earliest planned run where it changed, and clears the timers of open alarms no filter plans
   * a run for any more (a filter deleted or changed, its repeat reached, its condition no longer met).
   */
  async #showTimers(timers: Map<string, AlarmTimers>): Promise<number> {
    const shown = await this.alarms.find({ $and: [openAlarms, { 'v.alarmfilter.next_run': { $gt: 0 } }] }, { fields: { d: 1, 'v.alarmfilter.next_run': 1 } });
    for (const alarm of shown) if (!timers.has(alarm._id)) timers.set(alarm._id, { entityId: alarm.d, stored: storedNextRun(alarm), byFilter: new Map() });
    let changed = 0;
    this.#timersShown = false;
    for (const [alarmId, timer] of timers) {
      const planned = [...timer.byFilter.values()].filter((run): run is number => run !== null);
      const nextRun = planned.length > 0 ? Math.min(...planned) : null;
      if (nextRun !== null) this.#timersShown = true;
      if (nextRun === timer.stored) continue;
      const change = await this.changes.apply(timer.entityId, { type: 'alarmfilter', alarmFilter: { nextRun }, initiator: 'system' }, {}, () => undefined);
      if (change && change.alarm._id === alarmId) changed++;
    }
    return changed;
  }

  /**
   * What the filter would do if saved now (nothing stored): the open alarms its `entity_filter` and `condition`
   * select, each with `due_at`, when its first run applies the tasks (now or earlier: at the first beat).
   */
  async preview(record: AlarmFilterRecord, limit: number): Promise<AlarmFilterPreview> {
    let filter: CompiledFilter;
    try {
      filter = compileFilter(record);
    } catch (err) {
      return { subject: 'alarms', count: 0, scanned: 0, data: [], due_now: 0, problem: errorDetail(err) };
    }
    const nowSec = this.clock.nowSec();
    const selected = new Set((await this.alarms.find({ $and: [filter.entityFilter, ...(filter.condition ? [filter.condition] : []), openAlarms] }, { fields: { _id: 1 } })).map((alarm) => alarm._id));
    const pbehaviors = record.postpone_if_active_pbehavior ? await this.pbehaviors.at(nowSec) : null;
    const dueAt = (alarm: Alarm) => Math.max(alarm.t, pbehaviors?.lastStop(alarm.d) ?? 0) + record.limit;
    let dueNow = 0;
    const page = await this.openAlarmPreview.select({
      limit,
      needsEntity: false,
      selects: (alarm) => {
        const chosen = selected.has(alarm._id);
        if (chosen && dueAt(alarm) <= nowSec) dueNow++;
        return chosen;
      },
      annotate: (alarm) => ({ due_at: dueAt(alarm) }),
    });
    return { ...page, due_now: dueNow };
  }
}

/** The filter ready to apply; throws when it cannot be. */
function compileFilter(record: AlarmFilterRecord): CompiledFilter {
  const unknown = record.tasks.filter((task) => !(alarmFilterTasks as readonly string[]).includes(task));
  if (record.tasks.length === 0) throw new Error('it has no tasks');
  if (unknown.length > 0) throw new Error(`unknown task(s) ${unknown.join(', ')}`);
  if (!Number.isInteger(record.limit) || record.limit < 0) throw new Error(`limit ${JSON.stringify(record.limit)} is not a number of seconds`);
  if (!Number.isInteger(record.repeat) || record.repeat < 1) throw new Error(`repeat ${JSON.stringify(record.repeat)} lets it run no time`);
  const condition = query('condition', record.condition);
  return { record, entityFilter: query('entity_filter', record.entity_filter), condition: Object.keys(condition).length === 0 ? null : condition };
}

/** A stored query (JSON text), checked again: a filter written by an older version or by hand may be unsafe. */
function query(field: string, text: string): Filter {
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new Error(`${field} is not valid JSON`);
  }
  try {
    return assertSafeFilter(parsed);
  } catch (err) {
    throw new Error(`${field}: ${errorDetail(err)}`);
  }
}
