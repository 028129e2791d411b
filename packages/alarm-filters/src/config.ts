import { object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';

/** `[alarm-filters]` of `etc/webserver.conf`. */
export const alarmFiltersConfigSchema = object({
  /** Author of the steps the tasks write (the original's `[FILTER] author`). */
  author: string().trim().min(1, 'author must not be empty').default('system'),
});

export type AlarmFiltersConfig = InferType<typeof alarmFiltersConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const alarmFiltersConfig = featureConfig(alarmFiltersConfigSchema);
