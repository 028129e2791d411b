import { inject, injectable } from 'tsyringe';
import type { Query } from 'mingo';
import { ErrorCodes, HttpError, injectRef, kernelRefs, hasCode, type Clock, type Filter, type SortSpec } from '@vigie/kernel';
import { pbehaviorsConfig, type PbehaviorsConfig } from './config.js';
import { presentPbehavior, withinFirstWindow, type PbehaviorOutput, type PbehaviorRecord } from './pbehavior.js';
import { PbehaviorIndex, type IndexedPbehavior } from './pbehavior-index.js';
import { readCreation, readUpdate, type PbehaviorBody, type PbehaviorCreationBody } from './pbehavior-input.js';
import { PbehaviorRepository } from './pbehavior-repository.js';

export const duplicateIdMessage = 'Trying to insert PBehavior with already existing _id';
export const unknownIdMessage = 'The id does not match any pbehavior';

/** What PUT answers (the spec's list of fields). */
export interface PbehaviorUpdateOutput {
  name: string;
  author: string;
  reason: string;
  filter: string;
  type_: string;
  exdate: number[];
  tstart: number;
  tstop: number;
}

/** Fields `/pbehavior/read` sorts on; the last two are computed, so sorting on them happens in memory. */
export const sortableFields = ['_id', 'name', 'author', 'tstart', 'tstop', 'type_', 'reason', 'enabled', 'connector', 'connector_name', 'timezone', 'rrule', 'is_currently_active', 'isActive'] as const;
export type SortableField = (typeof sortableFields)[number];
const computedFields: readonly SortableField[] = ['is_currently_active', 'isActive'];

export interface SortKey {
  field: SortableField;
  direction: 1 | -1;
}

export interface ReadQuery {
  id?: string;
  search?: string;
  limit?: number;
  skip?: number;
  currentlyActive?: boolean;
  sort?: readonly SortKey[];
}

/** The `/pbehavior/read` answer, in the original route wrapper's envelope. */
export interface ReadOutput {
  total: number;
  data: { count: number; total_count: number; data: PbehaviorOutput[] }[];
  success: boolean;
}

/** Fields `search` looks into (REFERENCE §4.10). */
const searchFields = ['name', 'reason', 'author', 'type_', 'connector', 'connector_name', 'comments.author', 'comments.message', 'eids', 'filter'];

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
}

@injectable()
export class PbehaviorService {
  constructor(
    @inject(PbehaviorRepository) private readonly repository: PbehaviorRepository,
    @inject(PbehaviorIndex) private readonly index: PbehaviorIndex,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(pbehaviorsConfig.ref) private readonly config: PbehaviorsConfig,
  ) {}

  /**
   * Creates a pbehavior and answers its id. With `replaceExpired`, an existing pbehavior with the same `_id` that is
   * expired is archived as `EXP<ms>-<_id>`, disabled, and the new one takes its place, all at once.
   */
  async create(input: PbehaviorCreationBody, options: { user: string; replaceExpired: boolean }): Promise<string> {
    const { record, filter } = readCreation(input, { user: options.user, defaultTimezone: this.config.default_timezone });
    record.eids = await this.repository.matchingEntityIds(filter);
    await this.index.ready();
    try {
      await this.repository.insert(record);
    } catch (err) {
      if (!hasCode(err, ErrorCodes.DuplicateKey) || !options.replaceExpired) throw err;
      await this.#replaceExpired(record);
      return record._id;
    }
    this.index.put(record);
    return record._id;
  }

  async #replaceExpired(record: PbehaviorRecord): Promise<void> {
    const existing = await this.repository.get(record._id);
    const schedule = existing && this.index.scheduleOf(existing);
    if (!existing || !schedule?.isExpiredAt(this.clock.nowSec())) throw new HttpError(400, duplicateIdMessage);
    const archived: PbehaviorRecord = { ...existing, _id: `EXP${this.clock.nowMs()}-${existing._id}`, enabled: false };
    await this.repository.replaceArchiving(archived, existing._id, record);
    this.index.put(archived);
    this.index.put(record);
  }

  /** Whether a pbehavior has this id. */
  async exists(id: string): Promise<boolean> {
    return (await this.repository.get(id)) !== null;
  }

  async update(id: string, input: PbehaviorBody): Promise<PbehaviorUpdateOutput> {
    const existing = await this.repository.get(id);
    if (!existing) throw new HttpError(400, unknownIdMessage);
    const { record, filter } = readUpdate(existing, input);
    if (filter) record.eids = await this.repository.matchingEntityIds(filter);
    if (!(await this.repository.replace(record))) throw new HttpError(400, unknownIdMessage);
    this.index.put(record);
    const { name, author, reason, type_, exdate, tstart, tstop } = record;
    return { name, author, reason, filter: record.filter, type_, exdate, tstart, tstop };
  }

  async delete(id: string): Promise<{ deletedCount: number; acknowledged: boolean }> {
    const deleted = await this.repository.delete(id);
    this.index.remove(id);
    return { deletedCount: deleted ? 1 : 0, acknowledged: true };
  }

  /** Every pbehavior, or only those active now (answered from the index: no store scan, no schedule recomputed). */
  async list(options: { currentlyActive: boolean }): Promise<PbehaviorOutput[]> {
    if (!options.currentlyActive) return this.#present(await this.repository.list());
    const now = this.clock.nowSec();
    const active: PbehaviorRecord[] = [];
    for (const entry of (await this.index.ready()).entries()) if (entry.schedule?.isActiveAt(now)) active.push(entry.record);
    return active
      .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
      .map((record) => presentPbehavior(record, { isActive: withinFirstWindow(record, now), isCurrentlyActive: true }));
  }

  /** The pbehaviors whose `eids` hold an entity, optionally only enabled or disabled ones. */
  async forEntity(entityId: string, options: { enabled?: boolean }): Promise<PbehaviorOutput[]> {
    const filter: Filter = { eids: entityId };
    if (options.enabled !== undefined) filter.enabled = options.enabled;
    return this.#present(await this.repository.find(filter, { sort: { _id: 1 } }));
  }

  /** `/pbehavior/read`: search, sort and paginate. */
  async read(query: ReadQuery): Promise<ReadOutput> {
    const filter: Filter = {};
    if (query.id !== undefined) filter._id = query.id;
    if (query.search) {
      const pattern = escapeRegex(query.search);
      filter.$or = searchFields.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } }));
    }
    const sort = query.sort && query.sort.length > 0 ? query.sort : [{ field: '_id' as const, direction: 1 as const }];
    const skip = query.skip ?? 0;
    const limit = query.limit || undefined;
    let total: number;
    let page: PbehaviorOutput[];
    if (query.currentlyActive || sort.some((key) => computedFields.includes(key.field))) {
      // Activeness is computed, not stored: filter and sort in memory, then paginate.
      let outputs = await this.#present(await this.repository.find(filter));
      if (query.currentlyActive) outputs = outputs.filter((output) => output.is_currently_active);
      outputs.sort((a, b) => {
        for (const key of sort) {
          const order = compareValues(a[key.field], b[key.field]) * key.direction;
          if (order !== 0) return order;
        }
        return 0;
      });
      total = outputs.length;
      page = outputs.slice(skip, limit === undefined ? undefined : skip + limit);
    } else {
      const storeSort: SortSpec = Object.fromEntries(sort.map((key) => [key.field, key.direction]));
      total = await this.repository.count(filter);
      page = await this.#present(await this.repository.find(filter, { sort: storeSort, skip, limit }));
    }
    return { total: 1, data: [{ count: page.length, total_count: total, data: page }], success: true };
  }

  /**
   * Keeps `eids` current: each changed entity is added to or removed from the pbehaviors whose filter now selects it
   * or no longer does (an entity that no longer exists is removed everywhere).
   */
  async entitiesChanged(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const index = await this.index.ready();
    // Only pbehaviors whose filter may select the entity, or that hold it, are evaluated; only the entities one
    // concerns are read, and only the fields their filters name.
    const concerned = new Map<string, [IndexedPbehavior, Query][]>();
    let fields: Set<string> | null = new Set();
    for (const id of ids) {
      const entries: [IndexedPbehavior, Query][] = [];
      for (const entry of index.mayConcern(id)) {
        const query = index.queryOf(entry);
        if (!query) continue;
        entries.push([entry, query]);
        const named = index.fieldsOf(entry);
        if (named === null) fields = null;
        else if (fields) for (const field of named) fields.add(field);
      }
      if (entries.length > 0) concerned.set(id, entries);
    }
    if (concerned.size === 0) return;
    const entities = new Map((await this.repository.entities([...concerned.keys()], fields ?? undefined)).map((entity) => [entity._id, entity]));
    const changed = new Map<IndexedPbehavior, Set<string>>();
    for (const [id, entries] of concerned) {
      const entity = entities.get(id);
      for (const [entry, query] of entries) {
        const selected = entity !== undefined && query.test(entity);
        if (selected === index.on(id).has(entry)) continue;
        let eids = changed.get(entry);
        if (!eids) changed.set(entry, (eids = new Set(entry.record.eids)));
        if (selected) eids.add(id);
        else eids.delete(id);
      }
    }
    const updates = [...changed].map(([entry, eids]) => ({ id: entry.record._id, eids: [...eids], record: entry.record }));
    await this.repository.setEids(updates);
    for (const update of updates) this.index.put({ ...update.record, eids: update.eids });
  }

  async #present(records: readonly PbehaviorRecord[]): Promise<PbehaviorOutput[]> {
    await this.index.ready();
    const now = this.clock.nowSec();
    return records.map((record) =>
      presentPbehavior(record, { isActive: withinFirstWindow(record, now), isCurrentlyActive: this.index.scheduleOf(record)?.isActiveAt(now) ?? false }),
    );
  }
}
