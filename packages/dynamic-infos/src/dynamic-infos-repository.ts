import { inject, injectable } from 'tsyringe';
import { DocumentRepository, KernelTokens, type Doc, type Store } from '@vigie/kernel';
import type { ListRequest } from './list-query.js';
import type { InfoValueType } from './schemas.js';

export interface DynamicInfo {
  name: string;
  /** The engine renders string values as templates (REFERENCE §5.11). */
  value: string | number | boolean | null;
  /** Stored only when sent. */
  type?: InfoValueType;
}

/** A rule as stored in `dynamic_infos`, in the shape the dynamic-infos engine reads (REFERENCE §4.12, §5.11). */
export interface DynamicInfosRecord extends Doc {
  _id: string;
  name: string;
  description: string;
  infos: DynamicInfo[];
  alarm_patterns: Record<string, unknown>[] | null;
  entity_patterns: Record<string, unknown>[] | null;
  /** Pbehavior types during which the rule does not apply; stored only when sent. */
  disable_during_periods?: string[] | null;
  author: string;
  creation_date: number;
  last_modified_date: number;
}

/** The rules in `dynamic_infos`, by id. */
@injectable()
export class DynamicInfosRepository extends DocumentRepository<DynamicInfosRecord> {
  constructor(@inject(KernelTokens.Store) store: Store) {
    super(store, 'dynamic_infos', { order: { _id: 1 } });
  }

  async page(request: ListRequest): Promise<{ count: number; rules: DynamicInfosRecord[] }> {
    const [count, rules] = await Promise.all([
      this.documents.count(request.filter),
      this.documents.find(request.filter, { sort: request.sort, skip: request.skip, ...(request.limit === undefined ? {} : { limit: request.limit }) }),
    ]);
    return { count, rules };
  }
}
