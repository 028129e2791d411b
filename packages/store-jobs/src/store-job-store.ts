import { randomUUID } from 'node:crypto';
import type { Collection, Doc, Filter, JobQuery, JobSelection, JobStorePort, SortSpec, Store, StoredJob } from '@vigie/kernel';

const dateFields = ['lastRunAt', 'lastFinishedAt', 'nextRunAt', 'failedAt', 'lockedAt', 'startDate', 'endDate', 'debounceStartedAt'] as const;

/** A job as stored: dates are epoch milliseconds (the store port holds JSON only). */
interface JobDoc extends Doc {
  name: string;
  nextRunAt: number | null;
  lockedAt: number | null;
  disabled: boolean | null;
  priority: number;
}

function toDoc(job: Omit<StoredJob, '_id' | 'unique' | 'uniqueOpts'>, lastModifiedBy: string | undefined): Omit<JobDoc, '_id'> {
  const doc: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(job)) {
    if (value === undefined) continue;
    doc[key] = value;
  }
  for (const field of dateFields) {
    const value = (job as Record<string, unknown>)[field];
    doc[field] = value instanceof Date || typeof value === 'string' || typeof value === 'number' ? new Date(value).getTime() : null;
  }
  for (const field of ['failCount', 'failReason', 'repeatTimezone', 'repeatInterval', 'repeatAt', 'disabled', 'progress', 'fork', 'skipDays']) {
    doc[field] ??= null;
  }
  doc.data ??= null;
  doc.lastModifiedBy = lastModifiedBy ?? null;
  return doc as Omit<JobDoc, '_id'>;
}

function fromDoc(doc: Doc): StoredJob {
  const job: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (value === null && key !== 'nextRunAt' && key !== 'data') continue;
    job[key] = value;
  }
  for (const field of dateFields) {
    const value = doc[field];
    if (typeof value === 'number') job[field] = new Date(value);
    else if (field === 'nextRunAt') job[field] = null;
  }
  return job as unknown as StoredJob;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `{a: {b: 1}}` ⇒ `{'data.a.b': 1}`: partial matching on job data, as Agenda's own backends do. */
function dataFilter(data: unknown, prefix = 'data'): Filter {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { [prefix]: data };
  const out: Filter = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) Object.assign(out, dataFilter(value, `${prefix}.${key}`));
    else out[`${prefix}.${key}`] = value;
  }
  return out;
}

function selection(options: JobSelection): Filter | null {
  const filter: Filter = {};
  if (options.id) filter._id = options.id;
  else if (options.ids && options.ids.length > 0) filter._id = { $in: options.ids };
  if (options.name) filter.name = options.name;
  else if (options.names && options.names.length > 0) filter.name = { $in: options.names };
  else if (options.notNames && options.notNames.length > 0) filter.name = { $nin: options.notNames };
  if (options.data !== undefined) Object.assign(filter, dataFilter(options.data));
  return Object.keys(filter).length > 0 ? filter : null;
}

function toSort(sort: JobQuery['sort']): SortSpec {
  const out: SortSpec = {};
  for (const [key, dir] of Object.entries(sort ?? {})) out[key] = dir === 'asc' ? 1 : -1;
  return Object.keys(out).length > 0 ? out : { nextRunAt: -1, lastRunAt: -1 };
}

const nextJobOrder: SortSpec = { nextRunAt: 1, priority: -1 };

/**
 * The job store port over the store port, so jobs live wherever Vigie's data lives and survive restarts.
 * Locking relies on the store port's atomic `findOneAndUpdate`.
 */
export class StoreJobStore implements JobStorePort {
  readonly #jobs: Collection<JobDoc>;

  constructor(store: Store, collection = 'agenda_jobs') {
    this.#jobs = store.collection<JobDoc>(collection);
  }

  async open(): Promise<void> {
    await this.#jobs.createIndex({ keys: { name: 1, nextRunAt: 1 }, name: 'find_next_job' });
  }

  async find(query: JobQuery): Promise<{ jobs: StoredJob[]; total: number }> {
    const filter: Filter = {};
    if (query.name) filter.name = query.name;
    else if (query.names && query.names.length > 0) filter.name = { $in: query.names };
    if (query.id) filter._id = query.id;
    else if (query.ids && query.ids.length > 0) filter._id = { $in: query.ids };
    if (query.search) filter.name = { $regex: escapeRegex(query.search), $options: 'i' };
    if (query.data !== undefined) Object.assign(filter, dataFilter(query.data));
    if (query.includeDisabled === false) filter.disabled = { $ne: true };
    const limit = query.limit ?? 0;
    const [docs, total] = await Promise.all([
      this.#jobs.find(filter, { sort: toSort(query.sort), skip: query.skip ?? 0, limit: limit || undefined }),
      this.#jobs.count(filter),
    ]);
    return { jobs: docs.map(fromDoc), total };
  }

  async findById(id: string): Promise<StoredJob | null> {
    const doc = await this.#jobs.findOne({ _id: id });
    return doc ? fromDoc(doc) : null;
  }

  countDue(now: Date): Promise<number> {
    return this.#jobs.count({ nextRunAt: { $lt: now.getTime() } });
  }

  async remove(options: JobSelection): Promise<number> {
    const filter = selection(options);
    if (!filter) return 0;
    return (await this.#jobs.deleteMany(filter)).deletedCount;
  }

  async save(job: StoredJob, modifiedBy?: string): Promise<StoredJob> {
    const { _id, unique, uniqueOpts, ...props } = job;
    const doc = toDoc(props, modifiedBy);
    if (_id) {
      const saved = await this.#jobs.findOneAndUpdate({ _id, name: props.name }, { $set: doc }, { returnDocument: 'after' });
      return saved ? fromDoc(saved) : job;
    }
    if (props.type === 'single') {
      // A recurring job exists once; a due nextRunAt already stored is kept so a restart does not postpone it.
      const protect: Record<string, unknown> = {};
      if (typeof doc.nextRunAt === 'number' && doc.nextRunAt <= Date.now()) {
        protect.nextRunAt = doc.nextRunAt;
        delete (doc as Partial<JobDoc>).nextRunAt;
      }
      const saved = await this.#jobs.findOneAndUpdate(
        { name: props.name, type: 'single' },
        { $set: doc, ...(Object.keys(protect).length > 0 ? { $setOnInsert: protect } : {}) },
        { upsert: true, returnDocument: 'after' },
      );
      return fromDoc(saved as JobDoc);
    }
    if (unique) {
      if (uniqueOpts?.debounce) throw new Error('debounced jobs are not supported by the store job store');
      const filter: Filter = { ...unique, name: props.name };
      const update = uniqueOpts?.insertOnly ? { $setOnInsert: doc } : { $set: doc };
      const saved = await this.#jobs.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' });
      return fromDoc(saved as JobDoc);
    }
    const inserted = { ...doc, _id: randomUUID() } as JobDoc;
    await this.#jobs.insertOne(inserted);
    return fromDoc(inserted);
  }

  async saveState(job: StoredJob, modifiedBy?: string): Promise<void> {
    if (!job._id) throw new Error('cannot save the state of a job without id');
    const ms = (d: Date | undefined | null): number | null => (d ? new Date(d).getTime() : null);
    const result = await this.#jobs.updateOne(
      { _id: job._id, name: job.name },
      {
        $set: {
          lockedAt: ms(job.lockedAt),
          nextRunAt: ms(job.nextRunAt),
          lastRunAt: ms(job.lastRunAt),
          progress: job.progress ?? null,
          failReason: job.failReason ?? null,
          failCount: job.failCount ?? null,
          failedAt: ms(job.failedAt),
          lastFinishedAt: ms(job.lastFinishedAt),
          lastModifiedBy: modifiedBy ?? null,
        },
      },
    );
    if (result.matchedCount !== 1) throw new Error(`job ${job._id} (${job.name}) no longer exists`);
  }

  async lock(job: StoredJob, now: Date, modifiedBy?: string): Promise<StoredJob | undefined> {
    if (!job._id) return undefined;
    const locked = await this.#jobs.findOneAndUpdate(
      {
        _id: job._id,
        name: job.name,
        lockedAt: null,
        nextRunAt: job.nextRunAt ? new Date(job.nextRunAt).getTime() : null,
        disabled: { $ne: true },
      },
      { $set: { lockedAt: now.getTime(), lastModifiedBy: modifiedBy ?? null } },
      { returnDocument: 'after', sort: nextJobOrder },
    );
    return locked ? fromDoc(locked) : undefined;
  }

  async lockNext(name: string, nextScanAt: Date, lockDeadline: Date, now: Date, modifiedBy?: string): Promise<StoredJob | undefined> {
    const next = await this.#jobs.findOneAndUpdate(
      {
        name,
        disabled: { $ne: true },
        $or: [{ lockedAt: null, nextRunAt: { $ne: null, $lte: nextScanAt.getTime() } }, { lockedAt: { $ne: null, $lte: lockDeadline.getTime() } }],
      },
      { $set: { lockedAt: now.getTime(), lastModifiedBy: modifiedBy ?? null } },
      { returnDocument: 'after', sort: nextJobOrder },
    );
    return next ? fromDoc(next) : undefined;
  }

  async unlock(id: string): Promise<void> {
    await this.#jobs.updateOne({ _id: id, nextRunAt: { $ne: null } }, { $set: { lockedAt: null } });
  }

  async unlockMany(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#jobs.updateMany({ _id: { $in: ids } }, { $set: { lockedAt: null } });
  }

  async setDisabled(options: JobSelection, disabled: boolean): Promise<number> {
    const filter = selection(options);
    return filter ? (await this.#jobs.updateMany(filter, { $set: { disabled } })).modifiedCount : 0;
  }

  async removeAll(): Promise<number> {
    return (await this.#jobs.deleteMany({})).deletedCount;
  }
}
