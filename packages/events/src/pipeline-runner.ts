import { setTimeout as sleep } from 'node:timers/promises';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Extensions, type Logger } from '@vigie/kernel';
import { type Observations } from '@vigie/observability';
import { engineConfig, type EngineConfig } from './config.js';
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

/** A first-in first-out list whose `take` costs O(1) (an array's `shift` is linear). */
class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  take(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head] = undefined;
    this.#head++;
    // Reclaim the consumed prefix once it is most of the array.
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}

/** FNV-1a: a cheap, stable spread of entity ids over `lanes` buckets (the AMQP partitions). */
export function laneOf(entityId: string, lanes: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < entityId.length; i++) {
    hash ^= entityId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % lanes;
}

/**
 * Runs queued events through the stages contributed to `events.stages`, by ascending `order`. The events of one
 * entity go one at a time, in acceptance order; up to `[engine] lanes` events of different entities go
 * concurrently, the entities taking turns in the order their next event arrived (no entity waits behind another's
 * backlog). Processed events are
 * settled in the queue in groups (a batch whose events are all processed is deleted, the others record which
 * are); after a crash the events not settled run again, which the stages tolerate (they are idempotent per event id).
 */
@injectable()
export class PipelineRunner {
  /** Events of different entities processed at once, at most. */
  readonly #concurrency: number;
  /**
   * Waiting events by entity, in acceptance order (the one in flight excluded): the event itself when it is the
   * only one, as nearly always, a list only for more (no list made for each event).
   */
  readonly #byEntity = new Map<string, QueuedEvent | Fifo<QueuedEvent>>();
  /** Entities whose next event may start (none of theirs in flight), in the order they became so. */
  readonly #ready = new Fifo<string>();
  /** Entities with an event in flight. */
  readonly #busy = new Set<string>();
  /** Every event not finished, in arrival order (finished ones are skipped lazily): the oldest for the health check. */
  readonly #arrivals = new Fifo<QueuedEvent>();
  /** Finished events still in `#arrivals` (a plain set: each leaves it as it leaves `#arrivals`). */
  readonly #finishedEvents = new Set<QueuedEvent>();
  /** Ids of the events a previous run left queued, until each has run once. */
  readonly #redelivered = new Set<string>();
  /** Events handed over and not finished. */
  #depth = 0;
  #workers = 0;
  readonly #loops = new Set<Promise<void>>();
  #stages: PipelineStage[] | undefined;
  #running = false;
  #started = false;
  #processed = 0;
  #failed = 0;
  readonly #dropped: Record<string, number> = {};
  /**
   * Per stage (index of `stages`), what it handled since the last report to the metrics, and when the last event it
   * handled was accepted: reported per settled group and whenever the pipeline runs dry, its lag taken then.
   */
  readonly #progress: { events: number; dropped: number; acceptedAt: number }[] = [];
  /** Events of each queue batch not finished yet. */
  readonly #unfinished = new Map<string, number>();
  /** Finished events not settled in the queue yet, by batch. */
  #finished = new Map<string, { node: string; ids: string[] }>();
  #finishedCount = 0;
  #removalTimer: NodeJS.Timeout | undefined;
  #removals: Promise<void> = Promise.resolve();
  readonly #idleWaiters: (() => void)[] = [];
  /** Accepted events not finished yet (the depth, kept as a count for the intake's backpressure). */
  #waiting = 0;
  /** Acceptances waiting for the depth to go below their limit. */
  #roomWaiters: { below: number; wake: () => void }[] = [];
  /** Events taken over from a dead node (`adopt`) not finished yet, each set with what to call once it is empty. */
  #adoptions: { ids: Set<string>; settled: () => void }[] = [];

  constructor(
    @inject(EventQueueRepository) private readonly queue: EventQueueRepository,
    @injectRef(kernelRefs.extensions) private readonly extensions: Extensions,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(engineConfig.ref) config: EngineConfig,
    @injectRef(kernelRefs.observations) private readonly observations: Observations,
  ) {
    this.#concurrency = config.lanes;
  }

  /** The contributed stages by ascending order (resolved once, at the first event). */
  get stages(): readonly PipelineStage[] {
    if (!this.#stages) {
      const stages = [...this.extensions.contributions(pipelineStagesPoint)].sort((a, b) => a.order - b.order);
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
    for (const queued of pending) this.#redelivered.add(queued._id);
    if (pending.length > 0) this.logger.info({ events: pending.length }, 'processing the events left queued by the previous run');
    this.enqueue(pending);
    this.#running = true;
    this.#started = true;
    this.#spawn();
  }

  /**
   * Takes over the events a dead node left queued (in its acceptance order): processed as events of a previous run
   * (redelivered), they resolve the answer once all of them are finished and settled in the queue.
   */
  adopt(events: readonly QueuedEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    for (const queued of events) this.#redelivered.add(queued._id);
    const settled = new Promise<void>((resolve) => this.#adoptions.push({ ids: new Set(events.map((queued) => queued._id)), settled: resolve }));
    this.enqueue(events);
    return settled;
  }

  /** Hands durably queued events over, in acceptance order; `admitted` when `admit` counted them already. */
  enqueue(events: readonly QueuedEvent[], admitted = false): void {
    if (!admitted) this.#waiting += events.length;
    this.#depth += events.length;
    for (const event of events) {
      this.#unfinished.set(event.batch, (this.#unfinished.get(event.batch) ?? 0) + 1);
      this.#arrivals.push(event);
      const waiting = this.#byEntity.get(event.entity);
      if (waiting === undefined) {
        this.#byEntity.set(event.entity, event);
        if (!this.#busy.has(event.entity)) this.#ready.push(event.entity);
      } else if (waiting instanceof Fifo) waiting.push(event);
      else {
        const list = new Fifo<QueuedEvent>();
        list.push(waiting);
        list.push(event);
        this.#byEntity.set(event.entity, list);
      }
    }
    this.#spawn();
  }

  /** Starts workers for the entities ready, up to the concurrency. */
  #spawn(): void {
    // A new worker takes its entity at once (synchronously): the loop ends when none is left or all workers run.
    while (this.#running && this.#workers < this.#concurrency && this.#ready.size > 0) {
      this.#workers++;
      const loop = this.#work();
      this.#loops.add(loop);
      void loop.finally(() => this.#loops.delete(loop));
    }
  }

  /** A worker: the next event of the next ready entity, until none is ready. */
  async #work(): Promise<void> {
    try {
      while (this.#running) {
        const entity = this.#ready.take();
        if (entity === undefined) break;
        const waiting = this.#byEntity.get(entity) as QueuedEvent | Fifo<QueuedEvent>;
        let event: QueuedEvent;
        if (waiting instanceof Fifo) {
          event = waiting.take() as QueuedEvent;
          if (waiting.size === 0) this.#byEntity.delete(entity);
        } else {
          event = waiting;
          this.#byEntity.delete(entity);
        }
        this.#busy.add(entity);
        try {
          await this.#process(event);
        } finally {
          this.#busy.delete(entity);
          if (this.#byEntity.has(entity)) this.#ready.push(entity);
          this.#depth--;
          this.#finishedEvents.add(event);
          while (this.#arrivals.size > 0 && this.#finishedEvents.delete(this.#arrivals.peek() as QueuedEvent)) this.#arrivals.take();
        }
        if (this.#depth === 0) {
          // Nothing left to process: the metrics get the progress now rather than with the next settled group.
          this.#reportProgress();
          if (this.#idleWaiters.length > 0) for (const wake of this.#idleWaiters.splice(0)) wake();
        }
      }
    } finally {
      this.#workers--;
    }
  }

  /** Lets every worker finish the event it is on, then settles what was processed in the queue. */
  async stop(): Promise<void> {
    this.#running = false;
    // Nothing is processed any more: acceptances waiting for room go on (their events stay queued for the next start).
    for (const { wake } of this.#roomWaiters.splice(0)) wake();
    await Promise.all([...this.#loops]);
    await this.#removeDone();
  }

  stats(): PipelineStats {
    const oldest = this.#arrivals.peek()?.accepted_at ?? null;
    return { depth: this.#depth, oldestAcceptedAt: oldest, processed: this.#processed, dropped: { ...this.#dropped }, failed: this.#failed, running: this.#running };
  }

  /**
   * Resolves once fewer than `below` accepted events wait to be processed (at once when stopped), counting the
   * `count` events about to be accepted as waiting from then on: `enqueue(events, true)` hands them over, or
   * `release(count)` gives their room back if they could not be queued.
   */
  async admit(count: number, below: number): Promise<void> {
    if (this.#waiting >= below && !(!this.#running && this.#started)) await new Promise<void>((wake) => this.#roomWaiters.push({ below, wake }));
    this.#waiting += count;
  }

  release(count: number): void {
    for (let i = 0; i < count; i++) this.#left();
  }

  /** Resolves once nothing waits and every processed event has left the queue (tests, benchmarks, shutdown). */
  async whenIdle(): Promise<void> {
    if (this.#depth > 0) await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
    await this.#removeDone();
  }

  async #process(queued: QueuedEvent): Promise<void> {
    // Past the first events after a start the set is empty: no id to hash (a fresh id is not hashed yet).
    const redelivered = this.#redelivered.size > 0 && this.#redelivered.delete(queued._id);
    const trip = new EventTrip(queued, this.logger, redelivered);
    // Traces only for `debug` events: their details are not even built for the others.
    const tracing = trip.event.debug === true;
    if (tracing) trip.trace('pipeline', 'event accepted', { event: trip.event, acceptedAt: trip.acceptedAt });
    const stages = this.stages;
    const observed = this.observations.listens('pipeline');
    for (let index = 0; index < stages.length; index++) {
      const stage = stages[index] as PipelineStage;
      if (tracing) trip.trace(stage.name, 'stage starts', { event: trip.event });
      // The first attempt inline (no promise of its own): it is the one nearly every event takes.
      let error: unknown;
      try {
        const pending = stage.process(trip);
        if (pending !== undefined) await pending;
      } catch (err) {
        error = await this.#retryStage(stage, trip, err);
      }
      if (error !== undefined) {
        this.#failed++;
        const message = error instanceof Error ? error.message : String(error);
        trip.log.error({ err: error, stage: stage.name, entityId: trip.entityId }, 'a pipeline stage kept failing: the event is set aside in event_failures');
        try {
          await this.queue.fail(queued, stage.name, message, this.clock.nowMs());
        } catch (err) {
          trip.log.error({ err }, 'could not set the failed event aside; it stays queued for the next start');
          this.#left();
          return;
        }
        this.#finish(queued);
        return;
      }
      // Throughput and lag per stage for the metrics feature (nothing is computed when nobody listens): summed here,
      // reported once per settled group rather than once per event and stage.
      if (observed) {
        const progress = (this.#progress[index] ??= { events: 0, dropped: 0, acceptedAt: 0 });
        progress.events++;
        if (trip.dropped !== undefined) progress.dropped++;
        progress.acceptedAt = trip.acceptedAt;
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

  /** One event fewer waits: the acceptances that now have room go on. */
  #left(): void {
    this.#waiting--;
    if (this.#roomWaiters.length > 0) this.#roomWaiters = this.#roomWaiters.filter(({ below, wake }) => (this.#waiting < below ? (wake(), false) : true));
  }

  /** Counts the event as finished (processed, dropped or set aside); settled with the next group. */
  #finish(queued: QueuedEvent): void {
    this.#left();
    let finished = this.#finished.get(queued.batch);
    if (!finished) this.#finished.set(queued.batch, (finished = { node: queued.node, ids: [] }));
    finished.ids.push(queued._id);
    this.#finishedCount++;
    if (this.#adoptions.length > 0 && this.#adopted(queued._id)) return;
    if (this.#finishedCount >= removalBatch) void this.#removeDone();
    else this.#removalTimer ??= setTimeout(() => void this.#removeDone(), removalDelayMs);
  }

  /** Counts an adopted event as finished; true when that finished its adoption, whose settlement is then written at once. */
  #adopted(id: string): boolean {
    const adoption = this.#adoptions.find(({ ids }) => ids.delete(id));
    if (adoption === undefined || adoption.ids.size > 0) return false;
    this.#adoptions = this.#adoptions.filter((other) => other !== adoption);
    void this.#removeDone().then(adoption.settled);
    return true;
  }

  /** Tells the metrics what each stage handled since the last report, and how old the last event it handled is now. */
  #reportProgress(): void {
    const stages = this.#stages;
    if (!stages) return;
    const nowMs = this.clock.nowMs();
    for (let index = 0; index < this.#progress.length; index++) {
      const progress = this.#progress[index];
      if (!progress || progress.events === 0) continue;
      const lagSeconds = (nowMs - progress.acceptedAt) / 1000;
      this.observations.pipeline({ stage: (stages[index] as PipelineStage).name, events: progress.events, lagSeconds, dropped: progress.dropped });
      progress.events = 0;
      progress.dropped = 0;
    }
  }

  /** After a first failure: the retries; the error of the last attempt when every attempt failed, else undefined. */
  async #retryStage(stage: PipelineStage, trip: EventTrip, firstError: unknown): Promise<unknown> {
    let err = firstError;
    for (let attempt = 0; ; attempt++) {
      const pause = retryPausesMs[attempt];
      if (pause === undefined) return err ?? new Error('unknown failure');
      trip.log.warn({ err, stage: stage.name, attempt: attempt + 1 }, 'a pipeline stage failed; retrying the event');
      await sleep(pause);
      try {
        await stage.process(trip);
        return undefined;
      } catch (next) {
        err = next;
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
    this.#reportProgress();
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
