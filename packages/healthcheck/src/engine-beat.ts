import { injectable } from 'tsyringe';
import {
  collectionRef,
  injectRef,
  kernelRefs,
  type Clock,
  type Collection,
  type Doc,
  type FeatureStore,
} from '@vigie/kernel';
import { type HealthResult } from '@vigie/observability';
import { reasonOf } from './deadline.js';

/** How often the scheduler records the beat (the `healthcheck.engine-beat` job). */
export const beatEverySeconds = 30;
/** Three missed beats: the scheduler is not running jobs (stopped, saturated or stuck). */
export const stalledAfterSeconds = 3 * beatEverySeconds;
/** Where the beat is kept: in the store, so that every node of a cluster sees the beat whichever node ran it. */
export const beatCollection = collectionRef<BeatRecord>('healthcheck_engine_beat');

export interface BeatRecord extends Doc {
  _id: 'scheduler';
  /** Epoch seconds of the last run. */
  at: number;
}

/**
 * Vigie's engines are jobs of its scheduler, not systemd units. A recurring job records a beat; the check
 * fails when the last beat is older than `stalledAfterSeconds`, or when none came that long after start.
 */
@injectable()
export class EngineBeat {
  #startedAt: number | undefined;

  constructor(
    @injectRef(kernelRefs.store) private readonly store: FeatureStore,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  get #beats(): Collection<BeatRecord> {
    return this.store.collection(beatCollection);
  }

  /** The start of this process: before its first beat, the scheduler gets `stalledAfterSeconds` to run it. */
  markStarted(): void {
    this.#startedAt = this.clock.nowSec();
  }

  async beat(): Promise<void> {
    await this.#beats.replaceOne({ _id: 'scheduler' }, { _id: 'scheduler', at: this.clock.nowSec() }, { upsert: true });
  }

  async check(): Promise<HealthResult> {
    let last: BeatRecord | null;
    try {
      last = await this.#beats.findOne({ _id: 'scheduler' });
    } catch (err) {
      return { ok: false, message: `Failed to read the scheduler's engine beat: ${reasonOf(err)}` };
    }
    const now = this.clock.nowSec();
    if (last) {
      const age = now - last.at;
      if (age > stalledAfterSeconds) return { ok: false, message: `Scheduler stalled: no engine beat for ${age} s (expected every ${beatEverySeconds} s)` };
      return { ok: true, message: '' };
    }
    const sinceStart = now - (this.#startedAt ?? now);
    if (sinceStart > stalledAfterSeconds) return { ok: false, message: `Scheduler stalled: no engine beat since Vigie started ${sinceStart} s ago` };
    return { ok: true, message: '' };
  }
}
