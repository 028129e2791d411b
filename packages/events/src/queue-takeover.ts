import { setTimeout as sleep } from 'node:timers/promises';
import { inject, injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Clock, type Collection, type Doc, type FeatureStore, type Logger } from '@vigie/kernel';
import { durationMs, engineConfig, type EngineConfig } from './config.js';
import { EventQueueRepository, type QueuedEvent } from './event-queue.js';
import { PipelineRunner } from './pipeline-runner.js';

/**
 * A node's lease on its queued events: renewed while the node runs. Once `alive_until` is past, another node may
 * claim it (`claimed_by`, until `claimed_until`, renewed while it works) and process what the dead node left queued.
 */
export interface NodeLease extends Doc {
  /** The node's name (`var/lib/events-node-id`). */
  _id: string;
  /** Epoch ms until which the node counts as alive. */
  alive_until: number;
  claimed_by?: string;
  claimed_until?: number;
}

export const nodeLeaseCollection = collectionRef<NodeLease>('event_nodes');

/** The lease is renewed, and the others' looked at, this many times per `[engine] node_lease`. */
const renewalsPerLease = 3;

/** A claim in force: held by a node other than `except`, not expired at `nowMs`. */
function claimedByAnother(lease: NodeLease | null, nowMs: number, except?: string): lease is NodeLease & { claimed_by: string } {
  return lease?.claimed_by !== undefined && lease.claimed_by !== except && (lease.claimed_until ?? 0) > nowMs;
}

/**
 * The takeover of a dead node's queued events. Every node holds a lease (`event_nodes`), renewed every third of
 * `[engine] node_lease`; a node whose lease has run out is dead to the others: the first to claim it (a conditional
 * update, atomic across nodes) processes the events it left queued, as a restart would, then deletes its lease. A
 * node starting again waits while another holds a claim on it, so that its leftovers are processed once; the stages
 * are idempotent per event id, so a node wrongly thought dead (paused longer than its lease) repeats nothing.
 */
@injectable()
export class QueueTakeover {
  readonly #leases: Collection<NodeLease>;
  readonly #leaseMs: number;
  #node = '';
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> = Promise.resolve();
  /** Claims this node holds and is working through, by dead node. */
  readonly #claims = new Set<string>();

  constructor(
    @injectRef(kernelRefs.store) store: FeatureStore,
    @inject(EventQueueRepository) private readonly queue: EventQueueRepository,
    @inject(PipelineRunner) private readonly runner: PipelineRunner,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
    @injectRef(engineConfig.ref) config: EngineConfig,
  ) {
    this.#leases = store.collection(nodeLeaseCollection);
    this.#leaseMs = durationMs(config.node_lease);
  }

  /**
   * Takes this node's lease, after waiting for a node that took its queued events over to finish them, and starts
   * renewing it and looking for dead nodes.
   */
  async start(node: string): Promise<void> {
    this.#node = node;
    for (let waited = false; ; waited = true) {
      const lease = await this.#leases.findOne({ _id: node });
      if (!claimedByAnother(lease, this.clock.nowMs())) break;
      if (!waited) this.logger.warn({ by: lease.claimed_by }, 'another node is processing the events this node left queued; waiting for it');
      await sleep(this.#leaseMs / renewalsPerLease);
    }
    await this.#renew();
    this.#timer = setInterval(() => {
      this.#tick = this.#tick.then(() => this.#beat()).catch((err: unknown) => this.logger.warn({ err }, 'could not renew the node lease or look for dead nodes'));
    }, this.#leaseMs / renewalsPerLease);
  }

  /** Stops renewing: once the lease runs out, another node processes what this one leaves queued. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#tick;
  }

  async #beat(): Promise<void> {
    await this.#renew();
    const nowMs = this.clock.nowMs();
    for (const dead of await this.#leases.find({ _id: { $ne: this.#node }, alive_until: { $lt: nowMs } })) {
      if (this.#claims.has(dead._id)) {
        await this.#leases.updateOne({ _id: dead._id, claimed_by: this.#node }, { $set: { claimed_until: nowMs + this.#leaseMs } });
      } else if (!claimedByAnother(dead, nowMs)) {
        await this.#claim(dead, nowMs);
      }
    }
  }

  #renew(): Promise<unknown> {
    return this.#leases.replaceOne({ _id: this.#node }, { _id: this.#node, alive_until: this.clock.nowMs() + this.#leaseMs }, { upsert: true });
  }

  /** Claims `dead` unless another node (or the dead one, back) changed its lease since it was read. */
  async #claim(dead: NodeLease, nowMs: number): Promise<void> {
    const unchanged = { _id: dead._id, alive_until: dead.alive_until, claimed_by: dead.claimed_by ?? null, claimed_until: dead.claimed_until ?? null };
    const { modifiedCount } = await this.#leases.updateOne(unchanged, { $set: { claimed_by: this.#node, claimed_until: nowMs + this.#leaseMs } });
    if (modifiedCount !== 1) return;
    this.#claims.add(dead._id);
    let events: QueuedEvent[];
    try {
      events = await this.queue.pending(dead._id);
    } catch (err) {
      this.#claims.delete(dead._id);
      throw err;
    }
    // A node stopped on purpose leaves nothing, usually: only a takeover with events is worth a warning.
    const log = { node: dead._id, events: events.length };
    if (events.length > 0) this.logger.warn(log, 'a node stopped renewing its lease: processing the events it left queued');
    else this.logger.info(log, 'a node stopped renewing its lease; it left no event queued');
    void this.runner
      .adopt(events)
      .then(() => this.#leases.deleteOne({ _id: dead._id, claimed_by: this.#node }))
      .then(() => this.logger.info({ node: dead._id, events: events.length }, 'the events a dead node left queued are processed'))
      .catch((err: unknown) => this.logger.error({ err, node: dead._id }, 'could not release the lease of a dead node; it is taken over again'))
      .finally(() => this.#claims.delete(dead._id));
  }
}
