import { inject, injectable } from 'tsyringe';
import { DocumentRepository, KernelTokens, type Doc, type Store } from '@vigie/kernel';

/** A pattern object; its grammar is the engine's (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/** The fields of an idle rule, the same in the store and in the API. */
export interface IdleRuleFields {
  _id: string;
  name: string;
  description: string;
  /** `last_event` or `last_update`. */
  type: string;
  /** `<number><unit>`, e.g. `3m`. */
  duration: string;
  operation: { type: string; parameters: Record<string, unknown> };
  alarm_patterns: Pattern[] | null;
  entity_patterns: Pattern[] | null;
  /** Stored when given (the original, 4.2.94, accepts it); the engine gives it no meaning. */
  disable_during_periods?: string[] | null;
  author: string;
  creation_date: number;
  last_modified_date: number;
}

/** An idle rule as stored in `idle_rule`: the API's field names and value forms, read as is by the engine. */
export interface IdleRuleRecord extends Doc, IdleRuleFields {}

/** The rules in `idle_rule`, by id, listed oldest first (the order they were created in). */
@injectable()
export class IdleRuleRepository extends DocumentRepository<IdleRuleRecord> {
  constructor(@inject(KernelTokens.Store) store: Store) {
    super(store, 'idle_rule', { order: { creation_date: 1, _id: 1 } });
  }

  count(): Promise<number> {
    return this.documents.count();
  }
}
