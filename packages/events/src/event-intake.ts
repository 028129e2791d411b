import { mkdirSync, writeFileSync } from 'node:fs';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import { EngineSettingsService } from './engine-settings.js';
import { EventIdSequence, idReservationFile, nodeName, readIdReservation } from './event-ids.js';
import { EventQueueRepository } from './event-queue.js';
import { entityIdOf, type VigieEvent } from './pipeline.js';
import { PipelineRunner } from './pipeline-runner.js';
import { QueueTakeover } from './queue-takeover.js';

/**
 * Where accepted events enter (HTTP, AMQP): `accept` resolves once they are durably queued, then the pipeline
 * processes them. Events of one call keep their order, and calls keep theirs.
 */
@injectable()
export class EventIntake {
  readonly #ids = new EventIdSequence((untilMs) => {
    mkdirSync(this.dataDir, { recursive: true });
    writeFileSync(idReservationFile(this.dataDir), `${untilMs}\n`);
  });
  #node: string | undefined;
  /** Hand-overs to the runner happen in acceptance order, even when stores answer out of order. */
  #handoff: Promise<void> = Promise.resolve();
  /** Calls are admitted in call order, each once the pipeline has room (backpressure). */
  #admission: Promise<void> = Promise.resolve();
  #heldBack = 0;

  constructor(
    @inject(EventQueueRepository) private readonly queue: EventQueueRepository,
    @inject(PipelineRunner) private readonly runner: PipelineRunner,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.dataDir) private readonly dataDir: string,
    @inject(EngineSettingsService) private readonly settings: EngineSettingsService,
    @inject(QueueTakeover) private readonly takeover: QueueTakeover,
  ) {}

  get node(): string {
    this.#node ??= nodeName(this.dataDir);
    return this.#node;
  }

  /** Events whose senders wait for room in the pipeline (not yet accepted): the health check counts them as waiting. */
  get heldBack(): number {
    return this.#heldBack;
  }

  /** New ids after those the previous run left queued. */
  async init(): Promise<void> {
    this.#ids.resumeAt(readIdReservation(this.dataDir));
    this.#ids.resumeAfter(await this.queue.lastId(this.node));
  }

  /**
   * Processes what the previous run left queued (once no other node is processing it: `QueueTakeover`), then every
   * accepted event.
   */
  async start(): Promise<void> {
    await this.takeover.start(this.node);
    this.runner.start(await this.queue.pending(this.node));
  }

  async stop(): Promise<void> {
    await this.takeover.stop();
    await this.runner.stop();
  }

  /**
   * Durably queues valid events (one atomic write); resolves when they are stored, with the number of queue
   * documents written (an audit record counts them). While `[engine]
   * max_waiting_events` accepted events wait to be processed, the call waits before accepting (after the calls
   * before it): the queue and the latency from acceptance stay bounded, senders are slowed down instead. When
   * `abandoned()` says the sender left meanwhile, nothing is accepted and the call fails.
   */
  async accept(events: readonly VigieEvent[], abandoned?: () => boolean): Promise<number> {
    if (events.length === 0) return 0;
    const admitted = this.#admission.then(() => this.runner.admit(events.length, this.settings.maxWaitingEvents));
    this.#admission = admitted;
    this.#heldBack += events.length;
    try {
      await admitted;
    } finally {
      this.#heldBack -= events.length;
    }
    // A sender that gave up while waiting (its connection closed) will send again: accepting now would queue twice.
    if (abandoned?.()) {
      this.runner.release(events.length);
      throw new Error('the sender left before its events could be accepted');
    }
    const now = this.clock.nowMs();
    const node = this.node;
    const accepted = events.map((event) => ({
      _id: `${this.#ids.next(now)}-${node}`,
      node,
      entity: entityIdOf(event),
      accepted_at: now,
      event,
    }));
    const stored = this.queue.insert(accepted);
    const previous = this.#handoff;
    const handoff = (async () => {
      await previous;
      let written;
      try {
        written = await stored;
      } catch (err) {
        this.runner.release(events.length);
        throw err;
      }
      this.runner.enqueue(written.queued, true);
      return written.documents;
    })();
    this.#handoff = handoff.then(
      () => undefined,
      () => undefined,
    );
    return handoff;
  }
}
