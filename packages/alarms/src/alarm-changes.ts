import { randomInt, randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type EventBus, type Logger } from '@vigie/kernel';
import { SerialQueues } from '@vigie/feature-kit';
import type { VigieEvent } from '@vigie/events';
import type { Alarm, AlarmTrigger } from './alarm.js';
import { AlarmRepository } from './alarm-repository.js';
import { alarmsConfig, lifecycleSettings, type AlarmsConfig } from './config.js';
import { alarmChangedEvent, alarmTriggerEvent, alarmTriggerRedeliveredEvent } from './refs.js';
import { applyOperation, type AlarmOperation, type LifecycleSettings } from './lifecycle.js';

/** Payload of `alarmTriggerEvent` on the kernel bus: one per trigger of a stored change. */
export interface AlarmTriggerEvent {
  trigger: AlarmTrigger;
  /** The alarm as stored by the change. */
  alarm: Alarm;
  /** The entity document, when the change came from an event that had one. */
  entity?: Record<string, unknown>;
  /** The event that caused the change (absent for beats and engines). */
  event?: VigieEvent;
  /** The queue id of that event (or the id an engine gave its change): with `trigger`, names the trigger durably. */
  eventId?: string;
}

/** Payload of `alarmChangedEvent`: one per stored change. */
export interface AlarmChangedEvent {
  /** The alarm as stored by the change. */
  alarm: Alarm;
  /** The alarm as it was before the change (null for a creation). */
  previous: Alarm | null;
  created: boolean;
}

/** What caused an operation, for idempotency and for the trigger payloads. */
export interface ChangeCause {
  /** The queue id of the event; a change already stored for it is not applied again. */
  eventId?: string;
  /** The event was left queued by a previous run: the alarm's per-node mark also tells whether it was applied. */
  redelivered?: boolean;
  event?: VigieEvent;
  entity?: Record<string, unknown>;
}

/** A stored change. */
export interface AppliedChange {
  alarm: Alarm;
  created: boolean;
  triggers: AlarmTrigger[];
}

/** Event ids kept on an alarm: the few events of one entity that may be redelivered after a crash. */
const appliedEventsKept = 32;
/** Tries of a change that keeps losing a race against another node. */
const maxAttempts = 5;

/** `<ms>-<sequence>` of an event id `<ms>-<sequence>-<node>`, and its node (ids of one node sort by the former). */
function idParts(eventId: string): { order: string; node: string } | null {
  const m = /^([0-9a-z]{11}-[0-9a-z]{6})-(.+)$/.exec(eventId);
  return m ? { order: m[1] as string, node: m[2] as string } : null;
}

/**
 * Whether the event was applied to this alarm already: among its last event ids, or — for an event a previous run
 * left queued — at or below its node's mark (a burst of one entity's events can push it out of the list).
 */
function appliedBefore(alarm: Alarm, eventId: string, redelivered: boolean): boolean {
  if (alarm.applied_events?.includes(eventId)) return true;
  if (!redelivered) return false;
  const parts = idParts(eventId);
  const mark = parts && alarm.applied_marks?.[parts.node];
  return mark !== undefined && mark !== null && parts !== null && parts.order <= mark;
}

/** The alarm's per-node marks with this event's id, when it moves its node's mark forward. */
function markApplied(marks: Record<string, string> | undefined, eventId: string | undefined): { applied_marks?: Record<string, string> } {
  const parts = eventId === undefined ? null : idParts(eventId);
  if (!parts) return marks ? { applied_marks: marks } : {};
  const current = marks?.[parts.node];
  if (current !== undefined && current >= parts.order) return { applied_marks: marks as Record<string, string> };
  return { applied_marks: { ...marks, [parts.node]: parts.order } };
}

/** `XX-XX-XX` of random capital letters. */
function randomDisplayName(): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const pair = () => `${letters[randomInt(26)]}${letters[randomInt(26)]}`;
  return `${pair()}-${pair()}-${pair()}`;
}

/**
 * The one code path of every alarm change — events (the pipeline stage), beats, and later idle rules, actions and
 * webhooks — so steps and triggers are the same whatever caused them. Operations on one entity run one at a time,
 * in call order; the change is stored (with the causing event id, atomically) before its triggers are emitted.
 */
@injectable()
export class AlarmChangeService {
  readonly #repository: AlarmRepository;
  readonly #clock: Clock;
  readonly #bus: EventBus;
  readonly #logger: Logger;
  readonly settings: LifecycleSettings;
  /** Each entity's operations, one at a time in call order. */
  readonly #queues = new SerialQueues();

  constructor(
    @inject(AlarmRepository) repository: AlarmRepository,
    @injectRef(kernelRefs.clock) clock: Clock,
    @injectRef(kernelRefs.eventBus) bus: EventBus,
    @injectRef(kernelRefs.logger) logger: Logger,
    @injectRef(alarmsConfig.ref) config: AlarmsConfig,
  ) {
    this.#repository = repository;
    this.#clock = clock;
    this.#bus = bus;
    this.#logger = logger;
    this.settings = lifecycleSettings(config);
  }

  /**
   * Applies `operation` to the entity's open alarm (a check may create one). Resolves with the stored change, or
   * null when the operation changed nothing (the reason is logged at debug level, or traced by the caller).
   */
  apply(entityId: string, operation: AlarmOperation, cause: ChangeCause = {}, onUnchanged?: (reason: string) => void): Promise<AppliedChange | null> {
    return this.#queues.run(entityId, () => this.#apply(entityId, operation, cause, onUnchanged));
  }


  /**
   * What `apply` would do, without storing it or emitting its triggers (dry runs): the change, or why nothing
   * would change.
   */
  async simulate(entityId: string, operation: AlarmOperation): Promise<{ change: AppliedChange | null; reason?: string }> {
    const current = await this.#repository.open(entityId);
    const result = applyOperation(current, operation, {
      entityId,
      nowSec: this.#clock.nowSec(),
      settings: this.settings,
      newId: randomUUID,
      displayName: randomDisplayName,
    });
    if (!result.changed) return { change: null, reason: result.reason };
    return { change: { alarm: result.alarm, created: result.created, triggers: result.triggers } };
  }

  async #apply(entityId: string, operation: AlarmOperation, cause: ChangeCause, onUnchanged?: (reason: string) => void): Promise<AppliedChange | null> {
    const unchanged = (reason: string): null => {
      if (onUnchanged) onUnchanged(reason);
      else this.#logger.debug({ entityId, operation: operation.type, reason }, 'alarm unchanged');
      return null;
    };
    for (let attempt = 1; ; attempt++) {
      const current = await this.#repository.open(entityId);
      if (cause.eventId !== undefined && current && appliedBefore(current, cause.eventId, cause.redelivered === true)) {
        if (current.last_change?.event === cause.eventId) {
          await this.#emit({ alarm: current, created: false, triggers: current.last_change.triggers }, cause, true);
        }
        return unchanged('the event was applied before a restart');
      }
      const result = applyOperation(current, operation, {
        entityId,
        nowSec: this.#clock.nowSec(),
        settings: this.settings,
        newId: randomUUID,
        displayName: randomDisplayName,
      });
      if (!result.changed) return unchanged(result.reason);
      const previousRevision = current?.revision ?? 0;
      const applied = [...(result.created ? [] : (current?.applied_events ?? [])), ...(cause.eventId === undefined ? [] : [cause.eventId])];
      const alarm: Alarm = {
        ...result.alarm,
        revision: previousRevision + 1,
        applied_events: applied.slice(-appliedEventsKept),
        ...(cause.eventId === undefined ? {} : { last_change: { event: cause.eventId, triggers: result.triggers } }),
        ...markApplied(result.created ? undefined : current?.applied_marks, cause.eventId),
      };
      if (await this.#repository.save(alarm, result.created ? null : current)) {
        const change: AppliedChange = { alarm, created: result.created, triggers: result.triggers };
        await this.#emit(change, cause);
        await this.#emitChanged(change, result.created ? null : current);
        return change;
      }
      // Another node changed the alarm since it was read (a beat): read it again and decide again.
      if (attempt >= maxAttempts) throw new Error(`alarm of ${entityId} kept changing under ${operation.type}; gave up after ${maxAttempts} attempts`);
    }
  }

  async #emitChanged(change: AppliedChange, previous: Alarm | null): Promise<void> {
    try {
      await this.#bus.emit(alarmChangedEvent, { alarm: change.alarm, previous, created: change.created });
    } catch (err) {
      this.#logger.error({ err, alarm: change.alarm._id }, 'an alarms.changed subscriber failed');
    }
  }

  async #emit(change: AppliedChange, cause: ChangeCause, redelivered = false): Promise<void> {
    for (const trigger of change.triggers) {
      try {
        await this.#bus.emit(redelivered ? alarmTriggerRedeliveredEvent : alarmTriggerEvent, {
          trigger,
          alarm: change.alarm,
          entity: cause.entity,
          event: cause.event,
          ...(cause.eventId === undefined ? {} : { eventId: cause.eventId }),
        });
      } catch (err) {
        // The change is stored; a failing subscriber must not undo it nor stop the other triggers.
        this.#logger.error({ err, trigger, alarm: change.alarm._id }, 'an alarms.trigger subscriber failed');
      }
    }
  }
}
