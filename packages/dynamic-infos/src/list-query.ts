import { assertSafeFilter } from '@vigie/filter-safety';
import { ErrorCodes, VigieError, type Filter, type SortSpec } from '@vigie/kernel';
import { escapeRegExp } from '@vigie/feature-kit';
import { defaultSearchFields, maxSearchLength, searchableFields, sortKeys } from './schemas.js';

/** What the list route's query asks for, once checked (`listQuerySchema`). */
export interface ListQuery {
  search?: string;
  search_fields?: string;
  limit?: string;
  offset?: string;
  skip?: string;
  sort_key?: string;
  sort_dir?: string;
}

export interface ListRequest {
  filter: Filter;
  sort: SortSpec;
  skip: number;
  /** Absent: no limit. */
  limit?: number;
}

function searchFields(list: string | undefined): readonly string[] {
  const fields = (list ?? '')
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
  const invalid = fields.filter((field) => !(searchableFields as readonly string[]).includes(field));
  if (invalid.length > 0) throw new VigieError(ErrorCodes.Validation, `the following search fields are invalid: ${invalid.join(', ')}`);
  return fields.length > 0 ? fields : defaultSearchFields;
}

/**
 * The store request of a list query (REFERENCE §4.12): `search` OR'ed over the chosen fields, `offset` (or its alias
 * `skip`), `limit` 0 for no limit, `sort_key` among the sortable fields (else `_id`) with `_id` breaking ties so that
 * pages never overlap.
 */
export function listRequest(query: ListQuery): ListRequest {
  const fields = searchFields(query.search_fields);
  const search = query.search ?? '';
  const pattern = escapeRegExp(search);
  const filter =
    search === ''
      ? {}
      : assertSafeFilter({ $or: fields.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } })) }, { maxRegexLength: 2 * maxSearchLength });
  const sortKey = (sortKeys as readonly string[]).includes(query.sort_key ?? '') ? (query.sort_key as string) : '_id';
  const direction = query.sort_dir === 'DESC' ? -1 : 1;
  const sort: SortSpec = sortKey === '_id' ? { _id: direction } : { [sortKey]: direction, _id: 1 };
  const limit = Number(query.limit ?? '0');
  return { filter, sort, skip: Number(query.offset ?? query.skip ?? '0'), ...(limit > 0 ? { limit } : {}) };
}
