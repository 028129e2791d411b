import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, RunScopedStorage, type Clock, type Logger, type Scheduler } from '@vigie/kernel';
import { durationSeconds } from '@vigie/input';
import { RuleCache } from '@vigie/feature-kit';
import { alarmReaderRef, openAlarmPreviewRef, type Alarm, type AlarmReader, type AlarmTriggerEvent, type OpenAlarmPreview, type PreviewAlarm } from '@vigie/alarms';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import { compileAlarmPatterns, compileEntityPatterns, compileEventPatterns, ruleProblem, type CompiledPatterns, type PatternAlarm, type PatternEntity, type PatternEvent } from '@vigie/patterns';
import { patternRegExp, type PreviewPage } from '@vigie/rule-schemas';
import { ActionRepository, type ActionRecord } from './action-repository.js';
import { RuleOperationRunner } from './rule-operation.js';
import { DelayedRunRepository, delayedPlanId } from './delayed-runs.js';

/** The durable job of a delayed action (one run per trigger). */
export const delayedActionJob = 'actions.delayed';
/** The hourly job that forgets old delayed runs (`DelayedRunRepository.purge`). */
export const delayedPurgeJob = 'actions.delayed.purge';

export interface DelayedActionData {
  action: string;
  entity: string;
  /** The alarm the trigger fired on: the action does nothing if it is no longer the entity's open alarm. */
  alarm: string;
  trigger: string;
  /**
   * The plan id (`delayedPlanId`) when the trigger came from an event (it can then be redelivered): a redelivered
   * trigger plans no second job for it.
   */
  plan?: string;
}

/** An action ready to be matched. */
interface CompiledAction {
  record: ActionRecord;
  triggers: ReadonlySet<string>;
  eventPatterns: CompiledPatterns<PatternEvent, PatternEntity> | null;
  alarmPatterns: CompiledPatterns<PatternAlarm | undefined>;
  entityPatterns: CompiledPatterns<PatternEntity | undefined>;
  /** Legacy actions (no hook): alarm `v` fields and the expression one of them must match. */
  legacy: { fields: string[]; regex: RegExp } | null;
  delayMs: number;
}

/** What an action would act on now: the open alarms it selects, the triggers it waits for, its delay. */
export interface ActionPreview extends PreviewPage<PreviewAlarm> {
  triggers: string[];
  delay_seconds: number;
  /** Why the engine would skip the action, when it would. */
  problem?: string;
}

/**
 * The action engine (REFERENCE §5.4): on each `alarms.trigger`, the actions whose hook lists the trigger and whose
 * given pattern lists (event, alarm, entity) all match are applied in `priority` order (then by `_id`), at once or,
 * with a `delay`, by a durable job. Changes made by actions do not fire actions again (no loops); other subscribers
 * (webhooks) still see their triggers.
 */
@injectable()
export class ActionEngine {
  /**
   * Set while an action's operation runs, so the triggers it causes are not matched again (they are emitted and
   * handled before the operation resolves). Enabled only while an action applies: on Node 20 an enabled storage
   * taxes every promise of the process.
   */
  readonly #applying = new RunScopedStorage<string>();
  readonly #actions: RuleCache<ActionRecord, CompiledAction>;
  /** Changes (their stored alarm objects) already seen: legacy actions run once per change, whatever its triggers. */
  readonly #changesSeen = new WeakSet<Alarm>();

  constructor(
    @inject(ActionRepository) private readonly repository: ActionRepository,
    @inject(RuleOperationRunner) private readonly runner: RuleOperationRunner,
    @injectRef(alarmReaderRef) private readonly alarms: AlarmReader,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(openAlarmPreviewRef) private readonly openAlarms: OpenAlarmPreview,
    @injectRef(kernelRefs.scheduler) private readonly scheduler: Scheduler,
    @inject(DelayedRunRepository) private readonly runs: DelayedRunRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {
    this.#actions = new RuleCache({ source: repository, compile: compileAction, order: applicationOrder, kind: 'action', logField: 'action', clock, logger });
  }

  /**
   * The `alarms.trigger` subscriber. Delayed actions are planned before it returns: the event that caused the change
   * leaves the queue only after its triggers are handled, so a crash before the job is stored redelivers the event
   * and with it the trigger (`onRedeliveredTrigger`). Immediate actions run after it returns, since the alarm's
   * entity is still locked by the change they would change again.
   */
  async onTrigger(payload: AlarmTriggerEvent): Promise<void> {
    const cause = this.#applying.getStore();
    if (cause !== undefined) return;
    // Decided before any await: the triggers of one change are handled concurrently.
    const firstOfChange = !this.#changesSeen.has(payload.alarm);
    this.#changesSeen.add(payload.alarm);
    // No action exists (known without reading the store): nothing to decide.
    if (this.#actions.fresh()?.length === 0) return;
    const matched = await this.#matching(payload, firstOfChange);
    for (const action of matched) if (action.delayMs > 0) await this.#plan(action, payload);
    const immediate = matched.filter((action) => action.delayMs === 0);
    if (immediate.length === 0) return;
    void (async () => {
      for (const action of immediate) await this.#apply(action.record, payload.alarm.d);
    })().catch((err: unknown) => this.logger.error({ err, trigger: payload.trigger, alarm: payload.alarm._id }, 'action engine failed'));
  }

  /**
   * The `alarms.trigger.redelivered` subscriber: the change was stored before a crash, its trigger may or may not
   * have been handled. Plans the delayed actions whose job neither waits in the job store nor ran. Immediate actions
   * are not applied again: their own change carries no trace of the trigger, so a second application could double
   * them (an operation lost in such a crash stays lost).
   */
  async onRedeliveredTrigger(payload: AlarmTriggerEvent): Promise<void> {
    if (payload.eventId === undefined) return;
    const firstOfChange = !this.#changesSeen.has(payload.alarm);
    this.#changesSeen.add(payload.alarm);
    const delayed = (await this.#matching(payload, firstOfChange)).filter((action) => action.delayMs > 0);
    if (delayed.length === 0) return;
    // Jobs first, then runs: a run is recorded before its job finishes and leaves the job store.
    const pending = new Set((await this.scheduler.list(delayedActionJob)).map((job) => (job.data as DelayedActionData).plan));
    for (const action of delayed) {
      const plan = delayedPlanId(payload.eventId, payload.trigger, action.record._id, payload.alarm._id);
      if (pending.has(plan) || (await this.runs.ran(plan))) continue;
      await this.#plan(action, payload);
    }
  }

  /** The actions this trigger fires, in application order. */
  async #matching(payload: AlarmTriggerEvent, firstOfChange: boolean): Promise<CompiledAction[]> {
    const actions = await this.#actions.rules();
    const matched: CompiledAction[] = [];
    let entity = payload.entity as PatternEntity | undefined;
    for (const action of actions) {
      if (!this.#matches(action, payload, firstOfChange, () => entity)) {
        if (action.entityPatterns.matchesEverything || entity !== undefined) continue;
        // Entity patterns need the entity: read it once, then decide again.
        entity = ((await this.entities.get(payload.alarm.d)) ?? undefined) as PatternEntity | undefined;
        if (!this.#matches(action, payload, firstOfChange, () => entity)) continue;
      }
      matched.push(action);
    }
    return matched;
  }

  async #plan(action: CompiledAction, { alarm, trigger, eventId }: AlarmTriggerEvent): Promise<void> {
    const data: DelayedActionData = {
      action: action.record._id,
      entity: alarm.d,
      alarm: alarm._id,
      trigger,
      ...(eventId === undefined ? {} : { plan: delayedPlanId(eventId, trigger, action.record._id, alarm._id) }),
    };
    // Agenda runs jobs on the wall clock.
    await this.scheduler.at(new Date(Date.now() + action.delayMs), delayedActionJob, data);
    this.logger.debug({ action: action.record._id, alarm: alarm._id, delayMs: action.delayMs }, 'action delayed');
  }

  #matches(action: CompiledAction, payload: AlarmTriggerEvent, firstOfChange: boolean, entity: () => PatternEntity | undefined): boolean {
    const { alarm, event } = payload;
    if (action.legacy) return event !== undefined && firstOfChange && selectsAlarm(action, alarm, undefined);
    if (!action.triggers.has(payload.trigger)) return false;
    // Given event patterns need an event (REFERENCE §5.4: `resolve`, `unsnooze`… come from no event); empty ones match all.
    if (action.eventPatterns && !action.eventPatterns.matchesEverything && (event === undefined || !action.eventPatterns.matches(event as PatternEvent, entity()))) return false;
    return selectsAlarm(action, alarm, action.entityPatterns.matchesEverything ? undefined : entity());
  }

  /**
   * What the action would act on if saved now (nothing stored): the open alarms its alarm and entity patterns (or,
   * for a legacy action, its fields and regex) select, which the engine applies it to at its next trigger.
   */
  async preview(record: ActionRecord, limit: number): Promise<ActionPreview> {
    let action: CompiledAction;
    try {
      action = compileAction(record);
    } catch (err) {
      return { subject: 'alarms', count: 0, scanned: 0, data: [], triggers: [], delay_seconds: 0, problem: ruleProblem(err) };
    }
    const page = await this.openAlarms.select({
      limit,
      needsEntity: !action.entityPatterns.matchesEverything,
      selects: (alarm, entity) => selectsAlarm(action, alarm, entity as PatternEntity | undefined),
    });
    return { ...page, triggers: [...action.triggers], delay_seconds: action.delayMs / 1000 };
  }

  /** For dry runs: the actions this trigger would apply (at once or after their delay), without applying them. */
  async wouldFire(payload: AlarmTriggerEvent): Promise<string[]> {
    const fired: string[] = [];
    let entity = payload.entity as PatternEntity | undefined;
    entity ??= ((await this.entities.get(payload.alarm.d)) ?? undefined) as PatternEntity | undefined;
    for (const action of await this.#actions.rules()) {
      if (!this.#matches(action, payload, true, () => entity)) continue;
      const delay = action.delayMs > 0 ? ` after ${action.delayMs / 1000} s` : '';
      fired.push(`apply action ${action.record._id} (${action.record.type})${delay}`);
    }
    return fired;
  }

  /** Forgets the delayed runs older than their retention (the hourly `actions.delayed.purge` job). */
  async purgeRuns(): Promise<void> {
    const purged = await this.runs.purge(this.clock.nowSec());
    if (purged > 0) this.logger.debug({ purged }, 'delayed action runs purged');
  }

  /** Runs the `actions.delayed` job: the action, if it still exists, on the alarm, if it is still open. */
  async runDelayed(data: DelayedActionData): Promise<void> {
    if (data.plan !== undefined) await this.runs.record(data.plan, this.clock.nowSec());
    const action = await this.repository.get(data.action);
    if (!action) {
      this.logger.info({ action: data.action, alarm: data.alarm }, 'delayed action not applied: the action was deleted');
      return;
    }
    const open = await this.alarms.openAlarm(data.entity);
    if (!open || open._id !== data.alarm) {
      this.logger.info({ action: data.action, alarm: data.alarm }, 'delayed action not applied: the alarm was resolved');
      return;
    }
    await this.#apply(action, data.entity);
  }

  #apply(action: ActionRecord, entityId: string): Promise<string | null> {
    return this.#applying.run(action._id, () =>
      this.runner.run(entityId, { type: action.type, parameters: action.parameters ?? null }, { rule: `action ${action._id}`, defaultAuthor: 'system' }),
    );
  }
}

/** Priority first, then `_id`. */
function applicationOrder(a: ActionRecord, b: ActionRecord): number {
  return (a.priority ?? 0) - (b.priority ?? 0) || (a._id < b._id ? -1 : 1);
}

/** The action ready to apply; throws when it cannot be. */
/** Whether the action's alarm terms select the alarm (its triggers and event patterns aside). */
function selectsAlarm(action: CompiledAction, alarm: Alarm, entity: PatternEntity | undefined): boolean {
  if (action.legacy) {
    const value = alarm.v as Record<string, unknown>;
    return action.legacy.fields.some((field) => typeof value[field] === 'string' && action.legacy!.regex.test(value[field]));
  }
  if (!action.alarmPatterns.matches(alarm as PatternAlarm)) return false;
  return action.entityPatterns.matchesEverything || (entity !== undefined && action.entityPatterns.matches(entity));
}

function compileAction(record: ActionRecord): CompiledAction {
  const hook = record.hook;
  const delaySec = record.delay ? durationSeconds(record.delay) : 0;
  if (delaySec === null) throw new Error(`delay ${JSON.stringify(record.delay)} is not a duration`);
  let legacy: CompiledAction['legacy'] = null;
  if (!hook) {
    if (!record.fields?.length || !record.regex) throw new Error('an action needs a hook, or fields and regex');
    legacy = { fields: record.fields, regex: patternRegExp(record.regex) };
  }
  return {
    record,
    triggers: new Set(hook?.triggers ?? []),
    eventPatterns: hook?.event_patterns ? compileEventPatterns(hook.event_patterns, 'hook.event_patterns') : null,
    alarmPatterns: compileAlarmPatterns(hook?.alarm_patterns ?? null, 'hook.alarm_patterns'),
    entityPatterns: compileEntityPatterns(hook?.entity_patterns ?? null, 'hook.entity_patterns'),
    legacy,
    delayMs: delaySec * 1000,
  };
}
