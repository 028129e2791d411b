import type { Logger } from '@vigie/kernel';
import { cloneJson } from '@vigie/json';
import type { QueuedEvent } from './event-queue.js';
import type { PipelineContext, PipelineData, PipelineDataKey, VigieEvent } from './pipeline.js';
import { shallowCopy } from './shallow-copy.js';

/**
 * A copy of an accepted event for the stages to change. Most events are flat (strings and numbers): a shallow copy
 * does, and the rare event with nested values is copied deeply.
 */
export function copyOfEvent(event: VigieEvent): VigieEvent {
  // An accepted event is JSON parsed or read from the store: no inherited keys, no undefined values.
  for (const key in event) {
    const value = event[key];
    if (typeof value === 'object' && value !== null) return cloneJson(event);
  }
  return shallowCopy(event);
}

/** The values of one trip, stored by key name. */
class TripData implements PipelineData {
  /** Made at the first `set`: later stages read the data of every event, and most events leave none. */
  #values: Map<string, unknown> | undefined;

  get<T>(key: PipelineDataKey<T>): T | undefined {
    // Only `set` writes the map, with a value of the key's type.
    return this.#values?.get(key.name) as T | undefined;
  }

  set<T>(key: PipelineDataKey<T>, value: T): void {
    (this.#values ??= new Map()).set(key.name, value);
  }
}

/** One event's trip through the stages. The per-event logger is made only when something logs. */
export class EventTrip implements PipelineContext {
  event: VigieEvent;
  readonly eventId: string;
  readonly redelivered: boolean;
  readonly acceptedAt: number;
  entityId: string;
  entity?: Readonly<Record<string, unknown> & { _id: string; enabled?: boolean }>;
  #data: TripData | undefined;
  #dropped: string | undefined;
  #log: Logger | undefined;
  readonly #parentLog: Logger;

  constructor(queued: QueuedEvent, parentLog: Logger, redelivered = false) {
    // Stages change the event; the queued copy stays as accepted, should the event have to run again.
    this.event = copyOfEvent(queued.event);
    this.eventId = queued._id;
    this.redelivered = redelivered;
    this.acceptedAt = queued.accepted_at;
    this.entityId = queued.entity;
    this.#parentLog = parentLog;
  }

  /** Made at its first use: most events pass every stage without leaving data for later ones. */
  get data(): PipelineData {
    this.#data ??= new TripData();
    return this.#data;
  }

  get log(): Logger {
    this.#log ??= this.#parentLog.child({ eventId: this.eventId });
    return this.#log;
  }

  get dropped(): string | undefined {
    return this.#dropped;
  }

  trace(stage: string, message: string, details?: Record<string, unknown>): void {
    if (this.event.debug === true) this.log.info({ stage, entityId: this.entityId, ...details }, message);
  }

  drop(reason: string): void {
    this.#dropped ??= reason;
  }
}
