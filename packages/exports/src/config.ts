import { object, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { durationSetting } from '@vigie/input';

/** `[exports]` of `etc/webserver.conf`. */
export const exportsConfigSchema = object({
  /** Exports (their record and file) older than this are deleted when a new one starts and at start; 0s keeps them. */
  retention: durationSetting('retention', '7d'),
});

export type ExportsConfig = InferType<typeof exportsConfigSchema>;

export const exportsConfig = featureConfig(exportsConfigSchema);
