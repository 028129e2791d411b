import { object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { durationPattern, durationSeconds } from '@vigie/input';

/** `[heartbeats]` of `etc/webserver.conf`. */
export const heartbeatsConfigSchema = object({
  /**
   * After a start, expiries wait this long before raising alarms, so that events queued while the server was down
   * (AMQP) can refresh their heartbeats first. `0s`: an expiry that happened while the server was down is raised at
   * the first beat.
   */
  warm_up: string().matches(durationPattern, 'warm_up must be a duration such as 0s, 30s or 5m').default('0s'),
});

export type HeartbeatsConfig = InferType<typeof heartbeatsConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const heartbeatsConfig = featureConfig(heartbeatsConfigSchema);

export function warmUpSeconds(config: HeartbeatsConfig): number {
  return durationSeconds(config.warm_up) ?? 0;
}
