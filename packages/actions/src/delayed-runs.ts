import { createHash } from 'node:crypto';
import { injectable } from 'tsyringe';
import { collectionRef, ErrorCodes, hasCode, injectRef, kernelRefs, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';

/**
 * The delayed actions that ran (collection `action_delayed_runs`, one document per planned run that has started):
 * with the pending `actions.delayed` jobs, what tells a trigger redelivered after a crash whether its delayed job
 * exists already. A finished job leaves the job store, so without this record a redelivery coming after the delay
 * would plan the action a second time.
 */
export const delayedRunCollection = collectionRef<DelayedRun>('action_delayed_runs');

export interface DelayedRun extends Doc {
  /** The plan id (`delayedPlanId`). */
  _id: string;
  /** Epoch seconds the run started; records older than `delayedRunRetentionSec` are purged. */
  ran: number;
}

/**
 * How long a run is remembered. A trigger is redelivered when its event comes back from the queue after a crash,
 * i.e. when a node takes the event over (seconds) or the crashed node restarts (its outage): a week covers both.
 */
export const delayedRunRetentionSec = 7 * 24 * 3600;

/** The durable name of one planned run: the same trigger of the same event on the same alarm, for one action. */
export function delayedPlanId(eventId: string, trigger: string, action: string, alarm: string): string {
  return createHash('sha256').update([eventId, trigger, action, alarm].join('\u0000')).digest('hex');
}

@injectable()
export class DelayedRunRepository {
  readonly #runs: Collection<DelayedRun>;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#runs = store.collection(delayedRunCollection);
  }

  /** Records that the run of `plan` started (a rerun after a crash of the running node finds it recorded). */
  async record(plan: string, nowSec: number): Promise<void> {
    try {
      await this.#runs.insertOne({ _id: plan, ran: nowSec });
    } catch (err) {
      if (!hasCode(err, ErrorCodes.DuplicateKey)) throw err;
    }
  }

  async ran(plan: string): Promise<boolean> {
    return (await this.#runs.findOne({ _id: plan })) !== null;
  }

  /** Forgets the runs older than the retention; returns how many. */
  async purge(nowSec: number): Promise<number> {
    return (await this.#runs.deleteMany({ ran: { $lt: nowSec - delayedRunRetentionSec } })).deletedCount;
  }
}
