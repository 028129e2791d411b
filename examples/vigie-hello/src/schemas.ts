import { number, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { durationPattern } from '@vigie/input';

/** `[hello]` of the server's `etc/webserver.conf`: validated (and cast) by the kernel at start. */
export const helloConfigSchema = object({
  greeting: string().trim().min(1).max(64).default('Hello'),
  /** How often the summary job runs, e.g. `1m`, `1h`. */
  summary_every: string().matches(durationPattern, 'summary_every must be a duration such as 30s, 5m or 1h').default('1m'),
  /** Most visits kept; older ones are dropped by the summary job. */
  max_visits: number().integer().min(1).default(1000),
});
export type HelloConfig = InferType<typeof helloConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const helloConfig = featureConfig(helloConfigSchema);

/** `POST /api/v2/hello/visits` body. */
export const visitInputSchema = object({
  name: string().trim().min(1).max(100).required(),
}).noUnknown();

export const visitSchema = object({ _id: string().required(), name: string().required(), at: number().integer().required() });
export type Visit = InferType<typeof visitSchema>;

export const helloSchema = object({
  greeting: string().required(),
  visits: number().integer().required(),
  changed_entities: number().integer().required(),
  events_by_connector: object().required(),
  last_summary: number().integer().nullable().defined(),
});
