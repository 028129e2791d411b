import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { assertSafeFilter } from '@vigie/filter-safety';
import { ErrorCodes, VigieError, errorDetail } from '@vigie/kernel';
import { isJsonObject } from '@vigie/json';
import { AlarmFilterRepository, type AlarmFilterChanges, type AlarmFilterRecord } from './alarm-filter-repository.js';
import type { AlarmFilter, AlarmFilterInput, AlarmFilterUpdateInput, AlarmQueryInput } from './schemas.js';

function toAlarmFilter(record: AlarmFilterRecord): AlarmFilter {
  return {
    _id: record._id,
    entity_filter: record.entity_filter,
    condition: JSON.parse(record.condition) as Record<string, unknown>,
    tasks: [...record.tasks],
    ...(record.output_format === undefined ? {} : { output_format: record.output_format }),
    limit: record.limit,
    postpone_if_active_pbehavior: record.postpone_if_active_pbehavior,
    repeat: record.repeat,
  };
}

/**
 * The stored JSON text of a query a user sent, after checking it is a safe query object (allowed operators,
 * bounded regular expressions). Empty text means "no constraint", as the original read it.
 */
function storedQuery(field: string, input: AlarmQueryInput): string {
  let query: unknown = input;
  if (typeof input === 'string') {
    try {
      query = input.trim() === '' ? {} : JSON.parse(input);
    } catch (err) {
      throw new VigieError(ErrorCodes.Validation, `${field} is not valid JSON`, { cause: err });
    }
    if (!isJsonObject(query)) throw new VigieError(ErrorCodes.Validation, `${field} must hold a JSON object`);
  }
  try {
    return JSON.stringify(assertSafeFilter(query));
  } catch (err) {
    throw new VigieError(ErrorCodes.UnsafeFilter, `${field}: ${errorDetail(err)}`, { cause: err });
  }
}

function changesOf(input: AlarmFilterUpdateInput): AlarmFilterChanges {
  const changes: AlarmFilterChanges = {};
  if (input.entity_filter !== undefined) changes.entity_filter = storedQuery('entity_filter', input.entity_filter);
  if (input.condition !== undefined) changes.condition = storedQuery('condition', input.condition);
  if (input.tasks !== undefined) changes.tasks = [...input.tasks];
  if (input.output_format !== undefined) changes.output_format = input.output_format;
  if (input.limit !== undefined) changes.limit = input.limit;
  if (input.postpone_if_active_pbehavior !== undefined) changes.postpone_if_active_pbehavior = input.postpone_if_active_pbehavior;
  if (input.repeat !== undefined) changes.repeat = input.repeat;
  return changes;
}

@injectable()
export class AlarmFilterService {
  constructor(@inject(AlarmFilterRepository) private readonly filters: AlarmFilterRepository) {}

  async list(): Promise<AlarmFilter[]> {
    return (await this.filters.list()).map(toAlarmFilter);
  }

  /** The actions with this id: one or none. */
  async find(id: string): Promise<AlarmFilter[]> {
    const record = await this.filters.get(id);
    return record ? [toAlarmFilter(record)] : [];
  }

  /** Stores a new action with the defaults filled in; `DUPLICATE_KEY` when a chosen `_id` is taken. */
  async create(input: AlarmFilterInput): Promise<AlarmFilter> {
    const record = this.draft(input);
    await this.filters.insert(record);
    return toAlarmFilter(record);
  }

  /** The action a body describes, as it would be stored (the preview's filter). */
  draft(input: AlarmFilterInput): AlarmFilterRecord {
    return {
      _id: input._id || randomUUID(),
      entity_filter: storedQuery('entity_filter', input.entity_filter),
      condition: storedQuery('condition', input.condition),
      tasks: [...input.tasks],
      ...(input.output_format === undefined ? {} : { output_format: input.output_format }),
      limit: input.limit,
      postpone_if_active_pbehavior: input.postpone_if_active_pbehavior ?? false,
      repeat: input.repeat ?? 1,
    };
  }

  /** Merges the given keys into action `id`; null when it does not exist. */
  async update(id: string, input: AlarmFilterUpdateInput): Promise<AlarmFilter | null> {
    if (input._id !== undefined && input._id !== id) {
      throw new VigieError(ErrorCodes.Validation, `_id ${JSON.stringify(input._id)} differs from the id of the path; an action's id cannot change`);
    }
    const record = await this.filters.update(id, changesOf(input));
    return record ? toAlarmFilter(record) : null;
  }

  /** How many actions were deleted (0 or 1). */
  async delete(id: string): Promise<number> {
    return (await this.filters.delete(id)) ? 1 : 0;
  }
}
