import { setTimeout as sleep } from 'node:timers/promises';
import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Clock, type Extensions, type Logger, type Observations } from '@vigie/kernel';
import type { EngineConfig } from './config.js';
import { EventQueueRepository, type QueuedEvent } from './event-queue.js';
import { EventTrip } from './pipeline-context.js';
import { pipelineStagesPoint, type PipelineStage } from './pipeline.js';

/** How the pipeline stands, for the health check, logs and benchmarks. */
export interface PipelineStats {
  /** Accepted events not processed yet. */
  depth: number;
  /** Acceptance time (epoch ms) of the oldest of them, or null when none waits. */
  oldestAcceptedAt: number | null;
  processed: number;
  /** Events a stage dropped, by stage. */
  dropped: Record<string, number>;
  /** Events given up on after a stage kept failing (kept in `event_failures`). */
  failed: number;
  running: boolean;
}

/** A stage that throws is retried after these pauses, then the event is set aside in `event_failures`. */
const retryPausesMs = [50, 500];
/** Processed events are settled in the queue in groups: at this many, or after `removalDelayMs`. */
const removalBatch = 4000;
const removalDelayMs = 20;

/** One lane: the events of the entities that hash to it, processed one at a time in acceptance order. */
class Lane {
  items: (QueuedEvent | undefined)[] = [];
  head = 0;
  current: QueuedEvent | undefined;
  loop: Promise<void> | undefined;

  get waiting(): number {
    return this.items.length - this.head;
  }

  take(): QueuedEvent | undefined {
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head++;
    // Reclaim the consumed prefix once it is most of the array.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** FNV-1a: a cheap, stable spread of entity ids over lanes. */
export function laneOf(entityId: string, lanes: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < entityId.length; i++) {
    hash ^= entityId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % lanes;
}

/**
 * Runs queued events through the stages contributed to `events.stages`, by ascending `order`. Events of one
 * entity go through one lane, one at a time and in acceptance order; lanes run concurrently. Processed events are
 * settled in the queue in groups (a batch whose events are all processed is deleted, the others record which
 * are); after a crash the events not settled run again, which the stages tolerate (they are idempotent per event id).
 */
@injectable()
export class PipelineRunner {
  readonly #lanes: Lane[];
  #stages: PipelineStage[] | undefined;
  #running = false;
  #processed = 0;
  #failed = 0;
  readonly #dropped: Record<string, number> = {};
  /** Events of each queue batch not finished yet. */
  readonly #unfinished = new Map<string, number>();
  /** Finished events not settled in the queue yet, by batch. */
  #finished = new Map<string, { node: string; ids: string[] }>();
  #finishedCount = 0;
  #removalTimer: NodeJS.Timeout | undefined;
  #removals: Promise<void> = Promise.resolve();
  readonly #idleWaiters: (() => void)[] = [];

  constructor(
    @inject(EventQueueRepository) private readonly queue: EventQueueRepository,
    @inject(KernelTokens.Extensions) private readonly extensions: Extensions,
    @inject(KernelTokens.Logger) private readonly logger: Logger,
    @inject(KernelTokens.Clock) private readonly clock: Clock,
    @inject(KernelTokens.Config) config: EngineConfig,
    @inject(KernelTokens.Observations) private readonly observations: Observations,
  ) {
    this.#lanes = Array.from({ length: config.lanes }, () => new Lane());
  }

  /** The contributed stages by ascending order (resolved once, at the first event). */
  get stages(): readonly PipelineStage[] {
    if (!this.#stages) {
      const stages = [...this.extensions.contributions<PipelineStage>(pipelineStagesPoint)].sort((a, b) => a.order - b.order);
      const names = new Set<string>();
      for (const stage of stages) {
        if (names.has(stage.name)) throw new Error(`two pipeline stages are named ${stage.name}`);
        names.add(stage.name);
      }
      this.#stages = stages;
      this.logger.info({ stages: stages.map((s) => `${s.order} ${s.name}`) }, 'event pipeline stages');
    }
    return this.#stages;
  }

  /** Starts processing; `pending` are the events left queued by a previous run, in acceptance order. */
  start(pending: readonly QueuedEvent[]): void {
    void this.stages;
    if (pending.length > 0) this.logger.info({ events: pending.length }, 'processing the events left queued by the previous run');
    this.enqueue(pending);
    this.#running = true;
    for (const lane of this.#lanes) if (lane.waiting > 0 && !lane.loop) lane.loop = this.#drain(lane);
  }

  /** Hands durably queued events to their lanes. */
  enqueue(events: readonly QueuedEvent[]): void {
    for (const event of events) {
      this.#unfinished.set(event.batch, (this.#unfinished.get(event.batch) ?? 0) + 1);
      const lane = this.#lanes[laneOf(event.entity, this.#lanes.length)] as Lane;
      lane.items.push(event);
      if (this.#running && !lane.loop) lane.loop = this.#drain(lane);
    }
  }

  /** Lets every lane finish the event it is on, then removes what was processed from the queue. */
  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#lanes.map((lane) => lane.loop));
    await this.#removeDone();
  }

  stats(): PipelineStats {
    let depth = 0;
    let oldest: number | null = null;
    for (const lane of this.#lanes) {
      depth += lane.waiting + (lane.current ? 1 : 0);
      const first = lane.current ?? lane.items[lane.head];
      if (first && (oldest === null || first.accepted_at < oldest)) oldest = first.accepted_at;
    }
    return { depth, oldestAcceptedAt: oldest, processed: this.#processed, dropped: { ...this.#dropped }, failed: this.#failed, running: this.#running };
  }

  /** Resolves once nothing waits and every processed event has left the queue (tests, benchmarks, shutdown). */
  async whenIdle(): Promise<void> {
    if (this.stats().depth > 0) await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
    await this.#removeDone();
  }

  async #drain(lane: Lane): Promise<void> {
    try {
      while (this.#running && lane.waiting > 0) {
        const event = lane.take() as QueuedEvent;
        lane.current = event;
        await this.#process(event);
        lane.current = undefined;
      }
    } finally {
      lane.current = undefined;
      lane.loop = undefined;
      if (this.#idleWaiters.length > 0 && this.stats().depth === 0) for (const wake of this.#idleWaiters.splice(0)) wake();
    }
  }

  async #process(queued: QueuedEvent): Promise<void> {
    const trip = new EventTrip(queued, this.logger);
    // Traces only for `debug` events: their details are not even built for the others.
    const tracing = trip.event.debug === true;
    if (tracing) trip.trace('pipeline', 'event accepted', { event: trip.event, acceptedAt: trip.acceptedAt });
    for (const stage of this.stages) {
      if (tracing) trip.trace(stage.name, 'stage starts', { event: trip.event });
      const error = await this.#runStage(stage, trip);
      if (error !== undefined) {
        this.#failed++;
        const message = error instanceof Error ? error.message : String(error);
        trip.log.error({ err: error, stage: stage.name, entityId: trip.entityId }, 'a pipeline stage kept failing: the event is set aside in event_failures');
        try {
          await this.queue.fail(queued, stage.name, message, this.clock.nowMs());
        } catch (err) {
          trip.log.error({ err }, 'could not set the failed event aside; it stays queued for the next start');
          return;
        }
        this.#finish(queued);
        return;
      }
      // Throughput and lag per stage for the metrics feature (nothing is computed when nobody listens).
      if (this.observations.listens('pipeline')) {
        this.observations.pipeline({ stage: stage.name, events: 1, lagSeconds: (this.clock.nowMs() - trip.acceptedAt) / 1000 });
      }
      if (trip.dropped !== undefined) {
        this.#dropped[stage.name] = (this.#dropped[stage.name] ?? 0) + 1;
        if (trip.event.debug === true) trip.log.info({ stage: stage.name, reason: trip.dropped }, 'event dropped');
        else trip.log.debug({ stage: stage.name, reason: trip.dropped, entityId: trip.entityId }, 'event dropped');
        break;
      }
      if (tracing) trip.trace(stage.name, 'stage done', { event: trip.event });
    }
    if (trip.dropped === undefined) trip.trace('pipeline', 'event processed');
    this.#processed++;
    this.#finish(queued);
  }

  /** Counts the event as finished (processed, dropped or set aside); settled with the next group. */
  #finish(queued: QueuedEvent): void {
    let finished = this.#finished.get(queued.batch);
    if (!finished) this.#finished.set(queued.batch, (finished = { node: queued.node, ids: [] }));
    finished.ids.push(queued._id);
    this.#finishedCount++;
    if (this.#finishedCount >= removalBatch) void this.#removeDone();
    else this.#removalTimer ??= setTimeout(() => void this.#removeDone(), removalDelayMs);
  }

  /** The error of the last attempt when every attempt failed, else undefined. */
  async #runStage(stage: PipelineStage, trip: EventTrip): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        await stage.process(trip);
        return undefined;
      } catch (err) {
        const pause = retryPausesMs[attempt];
        if (pause === undefined) return err ?? new Error('unknown failure');
        trip.log.warn({ err, stage: stage.name, attempt: attempt + 1 }, 'a pipeline stage failed; retrying the event');
        await sleep(pause);
      }
    }
  }

  /**
   * One grouped write settling the finished events: batches all of whose events are finished leave the queue, the
   * others record their finished events. Writes run one after the other.
   */
  #removeDone(): Promise<void> {
    clearTimeout(this.#removalTimer);
    this.#removalTimer = undefined;
    if (this.#finishedCount === 0) return this.#removals;
    const finished = this.#finished;
    const count = this.#finishedCount;
    this.#finished = new Map();
    this.#finishedCount = 0;
    const completed: string[] = [];
    const progress = new Map<string, { node: string; ids: string[] }>();
    for (const [batch, done] of finished) {
      const left = (this.#unfinished.get(batch) ?? 0) - done.ids.length;
      if (left > 0) {
        this.#unfinished.set(batch, left);
        progress.set(batch, done);
      } else {
        this.#unfinished.delete(batch);
        completed.push(batch);
      }
    }
    this.#removals = this.#removals
      .then(() => this.queue.settle(completed, progress))
      .catch((err: unknown) => this.logger.error({ err, events: count }, 'could not settle processed events in the queue; they will run again at the next start'));
    return this.#removals;
  }
}
