import { injectable } from 'tsyringe';
import { engineConfig, durationMs, type EngineConfig } from './config.js';
import type { EngineSettings } from './pipeline.js';
import { injectRef } from '@vigie/kernel';
import { parseByteSize } from '@vigie/kernel-http';

/** The `[engine]` values other features need, in the units they use (exported as `engineSettings`). */
@injectable()
export class EngineSettingsService implements EngineSettings {
  readonly beatIntervalMs: number;
  readonly maxEventAgeMs: number;
  readonly maxQueueDepth: number;
  readonly maxBatchEvents: number;
  readonly maxBodyBytes: number;
  readonly maxWaitingEvents: number;
  readonly allowChangeSeverityToInfo: boolean;

  constructor(@injectRef(engineConfig.ref) config: EngineConfig) {
    this.beatIntervalMs = durationMs(config.beat_interval);
    this.maxEventAgeMs = durationMs(config.max_event_age);
    this.maxQueueDepth = config.max_queue_depth;
    this.maxBatchEvents = config.max_batch_events;
    this.maxBodyBytes = parseByteSize(config.max_body_size);
    this.maxWaitingEvents = config.max_waiting_events;
    this.allowChangeSeverityToInfo = config.allow_change_severity_to_info;
  }
}
