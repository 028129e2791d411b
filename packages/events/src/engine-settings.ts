import { inject, injectable } from 'tsyringe';
import { durationMs, type EngineConfig } from './config.js';
import type { EngineSettings } from './pipeline.js';
import { KernelTokens } from '@vigie/kernel';

/** The `[engine]` values other features need, in the units they use (exported as `engineSettings`). */
@injectable()
export class EngineSettingsService implements EngineSettings {
  readonly beatIntervalMs: number;
  readonly maxEventAgeMs: number;

  constructor(@inject(KernelTokens.Config) config: EngineConfig) {
    this.beatIntervalMs = durationMs(config.beat_interval);
    this.maxEventAgeMs = durationMs(config.max_event_age);
  }
}
