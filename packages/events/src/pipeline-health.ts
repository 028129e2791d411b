import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import { type HealthResult } from '@vigie/observability';
import { EngineSettingsService } from './engine-settings.js';
import { EventIntake } from './event-intake.js';
import { PipelineRunner } from './pipeline-runner.js';

/** The pipeline as the healthcheck's `engines` entry sees it: stopped, or lagging past the `[engine]` limits. */
@injectable()
export class PipelineHealth {
  constructor(
    @inject(PipelineRunner) private readonly runner: PipelineRunner,
    @inject(EventIntake) private readonly intake: EventIntake,
    @inject(EngineSettingsService) private readonly settings: EngineSettingsService,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  check(): Promise<HealthResult> {
    const stats = this.runner.stats();
    const problems: string[] = [];
    if (!stats.running) problems.push('the event pipeline is stopped');
    // Senders held back by `max_waiting_events` wait too: without them the depth could never pass that bound.
    const depth = stats.depth + this.intake.heldBack;
    if (depth > this.settings.maxQueueDepth) {
      problems.push(`the event pipeline is lagging: ${depth} events wait to be processed (limit ${this.settings.maxQueueDepth})`);
    }
    if (stats.oldestAcceptedAt !== null) {
      const ageMs = this.clock.nowMs() - stats.oldestAcceptedAt;
      if (ageMs > this.settings.maxEventAgeMs) {
        problems.push(`the event pipeline is lagging: the oldest waiting event was accepted ${Math.round(ageMs / 1000)}s ago (limit ${this.settings.maxEventAgeMs / 1000}s)`);
      }
    }
    return Promise.resolve({ ok: problems.length === 0, message: problems.join('; ') });
  }
}
