import { inject, injectable } from 'tsyringe';
import { HttpError, injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { acceptEvent } from './event-validation.js';
import type { QueuedEvent } from './event-queue.js';
import { EventTrip } from './pipeline-context.js';
import { PipelineRunner } from './pipeline-runner.js';
import type { DryRunContext, DryRunEffect, VigieEvent } from './pipeline.js';
import { entityIdOf } from './pipeline.js';

/** One stage's part of a dry run. */
export interface DryRunStage {
  stage: string;
  /** False for a stage that cannot run without writing: it was skipped. */
  simulated: boolean;
  would: DryRunEffect[];
}

export interface DryRunReport {
  /** The event as the last simulated stage left it. */
  event: VigieEvent;
  entity_id: string;
  /** Why the pipeline would drop the event, if it would. */
  dropped: string | null;
  stages: DryRunStage[];
}

class DryRunTrip extends EventTrip implements DryRunContext {
  readonly dryRun = true as const;
  effects: DryRunEffect[] = [];

  would(what: string, details?: Record<string, unknown>): void {
    this.effects.push(details === undefined ? { what } : { what, details });
  }
}

/**
 * Dry runs of the pipeline: one event through the stages' `dryRun`, in order, nothing written, each stage's
 * effects reported; a dropped event stops there, as in a real run.
 */
@injectable()
export class PipelineDryRun {
  constructor(
    @inject(PipelineRunner) private readonly runner: PipelineRunner,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  async run(raw: unknown, sender: { name: string; role?: string }): Promise<DryRunReport> {
    const accepted = acceptEvent(raw, this.clock.nowSec(), sender);
    if ('problem' in accepted) throw new HttpError(400, `invalid event: ${accepted.problem.reason}`);
    const event = accepted.event;
    const queued: QueuedEvent = { _id: 'dry-run', batch: 'dry-run', node: 'dry-run', event, entity: entityIdOf(event), accepted_at: this.clock.nowMs() };
    const trip = new DryRunTrip(queued, this.logger);
    const stages: DryRunStage[] = [];
    for (const stage of this.runner.stages) {
      if (!stage.dryRun) {
        stages.push({ stage: stage.name, simulated: false, would: [] });
        continue;
      }
      trip.effects = [];
      await stage.dryRun(trip);
      stages.push({ stage: stage.name, simulated: true, would: trip.effects });
      if (trip.dropped !== undefined) break;
    }
    return { event: trip.event, entity_id: trip.entityId, dropped: trip.dropped ?? null, stages };
  }
}
