import { extensionPointRef, type Logger } from '@vigie/kernel';

/** An event as it travels the pipeline (REFERENCE §6.3). Unknown keys are kept (extra infos). */
export interface VigieEvent {
  /** check, ack, ackremove, cancel, uncancel, comment, done, assocticket, declareticket, changestate, keepstate,
   *  snooze, perf, … (REFERENCE §6.3). */
  event_type: string;
  /** connector | component | resource (also metaalarm, service). */
  source_type: string;
  connector: string;
  connector_name: string;
  component?: string;
  resource?: string;
  /** Epoch seconds; the acceptance time when the sender gave none. */
  timestamp: number;
  /** 0..3 */
  state?: number;
  output?: string;
  long_output?: string;
  author?: string;
  ticket?: string;
  /** snooze, seconds */
  duration?: number;
  ack_resources?: boolean;
  debug?: boolean;
  [extra: string]: unknown;
}

/**
 * Names a value one stage leaves for later stages, and its type: `get` and `set` through the key are typed, so the
 * stage that writes and the stages that read agree without casts. Declare each key once, in the package of the stage
 * that sets it.
 */
export interface PipelineDataKey<T> {
  /** Unique among the keys, `<owner>.<name>` (e.g. `alarms.change`); the values are stored under it. */
  readonly name: string;
  /** Never set: carries the value type. */
  readonly valueType?: T;
}

export function pipelineDataKey<T>(name: string): PipelineDataKey<T> {
  return { name };
}

/** The values stages leave for later stages during one event's trip. */
export interface PipelineData {
  get<T>(key: PipelineDataKey<T>): T | undefined;
  set<T>(key: PipelineDataKey<T>, value: T): void;
}

/** What one event's trip through the stages carries; stages read and change it. */
export interface PipelineContext {
  /** The event; the event-filter stage may change it. */
  event: VigieEvent;
  /** Queue id of the event: unique, stable across redelivery after a crash, increasing in acceptance order. */
  readonly eventId: string;
  /**
   * Whether the event was left queued by a previous run (a crash or a stop came before it was settled): it may have
   * been applied already, and idempotent stages check.
   */
  readonly redelivered: boolean;
  /** When the event was accepted (epoch ms, from the injected clock). */
  readonly acceptedAt: number;
  /**
   * Entity id of the event (REFERENCE §6.3: resource ⇒ `resource/component`, component ⇒ `component`, connector ⇒
   * `connector/connector_name`), computed again after the event filter.
   */
  entityId: string;
  /**
   * The entity document (context-graph `default_entities`), set by the entities stage: the context graph's cached
   * copy, shared by every event of the entity, so stages read it and never change it.
   */
  entity?: Readonly<Record<string, unknown> & { _id: string; enabled?: boolean }>;
  /** Logger bound to this event; `trace` writes at info level when `event.debug` is true, nothing otherwise. */
  readonly log: Logger;
  trace(stage: string, message: string, details?: Record<string, unknown>): void;
  /** Stops the pipeline for this event; the reason is logged and counted. */
  drop(reason: string): void;
  readonly dropped: string | undefined;
  /** Values a stage leaves for later stages, by typed key (e.g. the alarms stage sets `alarmChangeDataKey`). */
  readonly data: PipelineData;
}

export interface PipelineStage {
  /** Unique; used in logs and traces. */
  name: string;
  /** Position in the pipeline: stages run by ascending order (see PipelineOrder). */
  order: number;
  /**
   * Returns nothing (rather than a promise) when it has nothing to do for this event, e.g. no rule exists or none
   * can concern it: the runner then spends no microtask on the stage.
   */
  process(context: PipelineContext): Promise<void> | void;
  /**
   * The stage in a dry run (`POST /api/v2/event/dry-run`): does what `process` does to the context (the event, the
   * entity, the data left for later stages) but writes nothing, and tells what it would have written through
   * `context.would`. A stage without it is reported as not simulated and skipped.
   */
  dryRun?(context: DryRunContext): Promise<void>;
}

/** What a stage would have done in a dry run: `what` in words, `details` as data. */
export interface DryRunEffect {
  what: string;
  details?: Record<string, unknown>;
}

/** The context of a dry run: a pipeline context whose stages record what they would do instead of doing it. */
export interface DryRunContext extends PipelineContext {
  readonly dryRun: true;
  would(what: string, details?: Record<string, unknown>): void;
}

/** The documented positions of the built-in stages (ARCHITECTURE §7); later features slot in between. */
export const PipelineOrder = {
  eventFilter: 100,
  /** Events still invalid after the filter are dropped and counted (events package). */
  validation: 150,
  /** context-graph: create/refresh entities and links from the event. */
  entities: 200,
  heartbeats: 300,
  /** alarms: create / update / resolve, steps, triggers. */
  alarms: 400,
  pbehaviors: 500,
  metaAlarms: 600,
  dynamicInfos: 700,
} as const;

/**
 * Extension point declared by the `events` feature; a feature contributes a stage with `dependsOn: ['events']` and
 * `f.extend(pipelineStagesPoint, (scope) => stage)`.
 */
export const pipelineStagesPoint = extensionPointRef<PipelineStage>('events.stages');

/** The `[engine]` settings other features read through the events feature's `engineSettingsRef`. */
export interface EngineSettings {
  /** Period of every engine's periodic beat (`[engine] beat_interval`). */
  readonly beatIntervalMs: number;
  /** `changestate`/`keepstate` to state 0 are taken from people (`[engine] allow_change_severity_to_info`). */
  readonly allowChangeSeverityToInfo: boolean;
}

/** The stable entity id of an event (REFERENCE §6.3). */
export function entityIdOf(event: Pick<VigieEvent, 'source_type' | 'connector' | 'connector_name' | 'component' | 'resource'>): string {
  switch (event.source_type) {
    case 'resource':
      return `${event.resource ?? ''}/${event.component ?? ''}`;
    case 'connector':
      return `${event.connector}/${event.connector_name}`;
    default:
      // component, and the Go engines' metaalarm and service events, which name their entity in `component`.
      return event.component ?? '';
  }
}
