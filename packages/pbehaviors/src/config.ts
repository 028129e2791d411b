import { number, object, string, type InferType } from 'yup';
import { TimeZone } from './time-zone.js';
import { featureConfig } from '@vigie/kernel';

/** `[pbehaviors]` of `etc/webserver.conf`. */
export const pbehaviorsConfigSchema = object({
  /** Zone of pbehaviors created without `timezone` (the original's `[PBEHAVIOR] default_timezone`). */
  default_timezone: string()
    .default('Europe/Paris')
    .test('time-zone', 'default_timezone must be an IANA time zone such as Europe/Paris or UTC', (value) => TimeZone.isValid(value)),
  /**
   * Age after which the in-memory pbehavior index is read again from the store. Writes through this node apply at
   * once; this bounds how long another node's writes take to show here. 0 reads the store on every use.
   */
  refresh_seconds: number().integer().min(0).max(86400).default(60),
});

export type PbehaviorsConfig = InferType<typeof pbehaviorsConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const pbehaviorsConfig = featureConfig(pbehaviorsConfigSchema);
