import { collectionRef, type Doc } from '@vigie/kernel';
import { documentRepositoryClass, type DocumentRepository } from '@vigie/feature-kit';
import type { Rule } from './schemas.js';

/** A pattern object: event fields to match (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/**
 * An event-filter rule as stored in `eventfilter`: the API's fields and value forms (`ruleOutputSchema`). Optional
 * fields are present only when they were sent; the pipeline applies the defaults (`priority` 0, `enabled` true,
 * outcomes `pass`).
 */
export interface RuleRecord extends Doc, Rule {}

export const ruleCollection = collectionRef<RuleRecord>('eventfilter');

/** The rules in `eventfilter`, by id, listed in store order (the service and the pipeline sort them by priority). */
export const RuleRepository = documentRepositoryClass(ruleCollection);
export type RuleRepository = DocumentRepository<RuleRecord>;
