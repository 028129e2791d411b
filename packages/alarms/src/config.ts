import { boolean, number, object, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { durationSeconds, durationSetting as duration } from '@vigie/input';
import type { LifecycleSettings } from './lifecycle.js';

/** `[alarms]` of `etc/webserver.conf`: the knobs of the alarm lifecycle (REFERENCE §6.1, §6.4). */
export const alarmsConfigSchema = object({
  /** An alarm back to OK (status off) for this long since its last step is resolved. */
  baggot_time: duration('baggot_time', '60s'),
  /** A cancelled alarm is resolved this long after its cancel. */
  cancel_autosolve_delay: duration('cancel_autosolve_delay', '1h'),
  /** A done alarm is resolved this long after its done. */
  done_autosolve_delay: duration('done_autosolve_delay', '15m'),
  /** Flapping: more state changes than this within `flapping_interval`; 0 disables flapping. */
  flapping_freq_limit: number().integer().min(0).default(0),
  flapping_interval: duration('flapping_interval', '0s'),
  /** Stealthy: back to OK within this long after a non-OK state; 0s disables it. */
  stealthy_interval: duration('stealthy_interval', '0s'),
  /** Refresh `v.last_event_date` on every event (else it keeps the creation time, as in the original). */
  enable_last_event_date: boolean().default(false),
  /**
   * A snooze whose end passed is removed even while the entity is under a pbehavior; by default it waits for the
   * pbehavior's end (REFERENCE §6.4; the original's `DisableActionSnoozeDelayOnPbh`).
   */
  disable_action_snooze_delay_on_pbh: boolean().default(false),
  /** Resolved alarms older than this are deleted by the beat. */
  resolved_retention: duration('resolved_retention', '90d'),
});

export type AlarmsConfig = InferType<typeof alarmsConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const alarmsConfig = featureConfig(alarmsConfigSchema);

const seconds = (text: string): number => durationSeconds(text) ?? 0;

export function lifecycleSettings(config: AlarmsConfig): LifecycleSettings {
  return {
    baggotTimeSec: seconds(config.baggot_time),
    cancelAutosolveDelaySec: seconds(config.cancel_autosolve_delay),
    doneAutosolveDelaySec: seconds(config.done_autosolve_delay),
    flappingFreqLimit: config.flapping_freq_limit,
    flappingIntervalSec: seconds(config.flapping_interval),
    stealthyIntervalSec: seconds(config.stealthy_interval),
    enableLastEventDate: config.enable_last_event_date,
    snoozeIgnoresPbehavior: config.disable_action_snooze_delay_on_pbh,
  };
}

export function retentionSeconds(config: AlarmsConfig): number {
  return seconds(config.resolved_retention);
}
