import { documentRepositoryClass, type DocumentRepository, type Doc } from '@vigie/kernel';

/** A pattern object: event fields to match (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/**
 * An event-filter rule as stored in `eventfilter`: the API's field names and value forms, read as is by the event
 * pipeline. Optional fields are present only when they were sent; the pipeline applies the defaults (`priority`
 * 0, `enabled` true, outcomes `pass`).
 */
export interface RuleRecord extends Doc {
  _id: string;
  description?: string;
  /** `break`, `drop` or `enrichment`. */
  type: string;
  /** One pattern (the spec's form) … */
  pattern?: Pattern | null;
  /** … or a list of patterns, OR'ed (the original's form from 3.48); never both. */
  patterns?: Pattern[] | null;
  priority?: number;
  enabled?: boolean;
  external_data?: Record<string, unknown>;
  actions?: Record<string, unknown>[];
  on_success?: string | null;
  on_failure?: string | null;
}

/** The rules in `eventfilter`, by id, listed in store order (the service and the pipeline sort them by priority). */
export const RuleRepository = documentRepositoryClass<RuleRecord>('eventfilter');
export type RuleRepository = DocumentRepository<RuleRecord>;
