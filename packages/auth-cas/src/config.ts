import { number, object, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';

/** `[auth-cas]` of `etc/webserver.conf`: how Vigie talks to the CAS server (the record says which one). */
export const casConfigSchema = object({
  /** Milliseconds a ticket validation (`serviceValidate`) may take. */
  timeout_ms: number().integer().min(100).max(60_000).default(5000),
});

export type CasConfig = InferType<typeof casConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const casConfig = featureConfig(casConfigSchema);
