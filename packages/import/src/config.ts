import { object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { parseByteSize } from '@vigie/kernel-http';

function isByteSize(value: string | undefined): boolean {
  try {
    return value !== undefined && parseByteSize(value) > 0;
  } catch {
    return false;
  }
}

/** `[import]` of `etc/webserver.conf`. */
export const importConfigSchema = object({
  /** Largest import body accepted (`512mb`, `1gib`, bytes); checked while the body streams to disk. */
  max_body_size: string().test('byte-size', 'max_body_size must be a size such as 512mb', isByteSize).default('512mb'),
});

export type ImportConfig = InferType<typeof importConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const importConfig = featureConfig(importConfigSchema);
