import { randomUUID } from 'node:crypto';
import {
  computeJobState,
  toJobId,
  InMemoryNotificationChannel,
  type AgendaBackend,
  type JobParameters,
  type JobRepository,
  type JobRepositoryOptions,
  type JobsOverview,
  type JobsQueryOptions,
  type JobsResult,
  type JobWithState,
  type RemoveJobsOptions,
  type JobsSort,
} from 'agenda';
import type { Collection, Doc, Filter, SortSpec, Store } from '../store/port.js';

const dateFields = ['lastRunAt', 'lastFinishedAt', 'nextRunAt', 'failedAt', 'lockedAt', 'startDate', 'endDate', 'debounceStartedAt'] as const;

/** A job as stored: dates are epoch milliseconds (the store port holds JSON only). */
interface JobDoc extends Doc {
  name: string;
  nextRunAt: number | null;
  lockedAt: number | null;
  disabled: boolean | null;
  priority: number;
}

function toDoc(job: Omit<JobParameters, '_id' | 'unique' | 'uniqueOpts'>, lastModifiedBy: string | undefined): Omit<JobDoc, '_id'> {
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

function fromDoc(doc: Doc): JobParameters {
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
  job._id = toJobId(doc._id);
  return job as unknown as JobParameters;
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

function selection(options: RemoveJobsOptions): Filter | null {
  const filter: Filter = {};
  if (options.id) filter._id = String(options.id);
  else if (options.ids && options.ids.length > 0) filter._id = { $in: options.ids.map(String) };
  if (options.name) filter.name = options.name;
  else if (options.names && options.names.length > 0) filter.name = { $in: options.names };
  else if (options.notNames && options.notNames.length > 0) filter.name = { $nin: options.notNames };
  if (options.data !== undefined) Object.assign(filter, dataFilter(options.data));
  return Object.keys(filter).length > 0 ? filter : null;
}

function toSort(sort: JobsSort | undefined): SortSpec {
  const out: SortSpec = {};
  for (const [key, dir] of Object.entries(sort ?? {})) out[key] = dir === 'asc' ? 1 : -1;
  return Object.keys(out).length > 0 ? out : { nextRunAt: -1, lastRunAt: -1 };
}

const nextJobOrder: SortSpec = { nextRunAt: 1, priority: -1 };

/**
 * Agenda's JobRepository over the store port, so jobs live wherever Vigie's data lives (the embedded
 * store by default) and survive restarts. Locking relies on the port's atomic `findOneAndUpdate`.
 */
export class StoreJobRepository implements JobRepository {
  readonly #jobs: Collection<JobDoc>;

  constructor(store: Store, collection = 'agenda_jobs') {
    this.#jobs = store.collection<JobDoc>(collection);
  }

  async connect(): Promise<void> {
    await this.#jobs.createIndex({ keys: { name: 1, nextRunAt: 1 }, name: 'find_next_job' });
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const filter: Filter = {};
    if (options.name) filter.name = options.name;
    else if (options.names && options.names.length > 0) filter.name = { $in: options.names };
    if (options.id) filter._id = options.id;
    else if (options.ids && options.ids.length > 0) filter._id = { $in: options.ids };
    if (options.search) filter.name = { $regex: escapeRegex(options.search), $options: 'i' };
    if (options.data !== undefined) Object.assign(filter, dataFilter(options.data));
    if (options.includeDisabled === false) filter.disabled = { $ne: true };
    const now = new Date();
    const skip = options.skip ?? 0;
    const limit = options.limit ?? 0;
    const withState = (doc: JobDoc): JobWithState => {
      const job = fromDoc(doc);
      return { ...job, _id: toJobId(doc._id), state: computeJobState(job, now) };
    };
    if (!options.state) {
      const [docs, total] = await Promise.all([
        this.#jobs.find(filter, { sort: toSort(options.sort), skip, limit: limit || undefined }),
        this.#jobs.count(filter),
      ]);
      return { jobs: docs.map(withState), total };
    }
    const all = (await this.#jobs.find(filter, { sort: toSort(options.sort) }))
      .map(withState)
      .filter((job) => (options.state === 'paused' ? job.disabled === true : job.state === options.state));
    return { jobs: limit > 0 ? all.slice(skip, skip + limit) : all.slice(skip), total: all.length };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    const now = new Date();
    const byName = new Map<string, JobsOverview>();
    for (const doc of await this.#jobs.find({})) {
      const job = fromDoc(doc);
      let overview = byName.get(job.name);
      if (!overview) {
        overview = { name: job.name, total: 0, running: 0, scheduled: 0, queued: 0, completed: 0, failed: 0, repeating: 0, paused: 0 };
        byName.set(job.name, overview);
      }
      overview.total += 1;
      overview[computeJobState(job, now)] += 1;
      if (job.disabled === true) overview.paused += 1;
    }
    return [...byName.values()];
  }

  async getDistinctJobNames(): Promise<string[]> {
    const docs = await this.#jobs.find({}, { projection: { name: 1 } });
    return [...new Set(docs.map((d) => d.name))];
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    const doc = await this.#jobs.findOne({ _id: id });
    return doc ? fromDoc(doc) : null;
  }

  async getQueueSize(): Promise<number> {
    return this.#jobs.count({ nextRunAt: { $lt: Date.now() } });
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = selection(options);
    if (!filter) return 0;
    return (await this.#jobs.deleteMany(filter)).deletedCount;
  }

  async saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    const { _id, unique, uniqueOpts, ...props } = job;
    const doc = toDoc(props, options?.lastModifiedBy);
    if (_id) {
      const saved = await this.#jobs.findOneAndUpdate({ _id: String(_id), name: props.name }, { $set: doc }, { returnDocument: 'after' });
      return saved ? (fromDoc(saved) as JobParameters<DATA>) : job;
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
      return fromDoc(saved as JobDoc) as JobParameters<DATA>;
    }
    if (unique) {
      if (uniqueOpts?.debounce) throw new Error('debounced jobs are not supported by the store job repository');
      const filter: Filter = { ...unique, name: props.name };
      const update = uniqueOpts?.insertOnly ? { $setOnInsert: doc } : { $set: doc };
      const saved = await this.#jobs.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' });
      return fromDoc(saved as JobDoc) as JobParameters<DATA>;
    }
    const inserted = { ...doc, _id: randomUUID() } as JobDoc;
    await this.#jobs.insertOne(inserted);
    return fromDoc(inserted) as JobParameters<DATA>;
  }

  async saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    if (!job._id) throw new Error('cannot save the state of a job without id');
    const ms = (d: Date | undefined | null): number | null => (d ? new Date(d).getTime() : null);
    const result = await this.#jobs.updateOne(
      { _id: String(job._id), name: job.name },
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
          lastModifiedBy: options?.lastModifiedBy ?? null,
        },
      },
    );
    if (result.matchedCount !== 1) throw new Error(`job ${job._id} (${job.name}) no longer exists`);
  }

  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    if (!job._id) return undefined;
    const locked = await this.#jobs.findOneAndUpdate(
      {
        _id: String(job._id),
        name: job.name,
        lockedAt: null,
        nextRunAt: job.nextRunAt ? new Date(job.nextRunAt).getTime() : null,
        disabled: { $ne: true },
      },
      { $set: { lockedAt: Date.now(), lastModifiedBy: options?.lastModifiedBy ?? null } },
      { returnDocument: 'after', sort: nextJobOrder },
    );
    return locked ? fromDoc(locked) : undefined;
  }

  async unlockJob(job: JobParameters): Promise<void> {
    if (!job._id) return;
    await this.#jobs.updateOne({ _id: String(job._id), nextRunAt: { $ne: null } }, { $set: { lockedAt: null } });
  }

  async unlockJobs(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await this.#jobs.updateMany({ _id: { $in: jobIds.map(String) } }, { $set: { lockedAt: null } });
  }

  async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters | undefined> {
    const next = await this.#jobs.findOneAndUpdate(
      {
        name: jobName,
        disabled: { $ne: true },
        $or: [{ lockedAt: null, nextRunAt: { $ne: null, $lte: nextScanAt.getTime() } }, { lockedAt: { $ne: null, $lte: lockDeadline.getTime() } }],
      },
      { $set: { lockedAt: (now ?? new Date()).getTime(), lastModifiedBy: options?.lastModifiedBy ?? null } },
      { returnDocument: 'after', sort: nextJobOrder },
    );
    return next ? fromDoc(next) : undefined;
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = selection(options);
    return filter ? (await this.#jobs.updateMany(filter, { $set: { disabled: true } })).modifiedCount : 0;
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = selection(options);
    return filter ? (await this.#jobs.updateMany(filter, { $set: { disabled: false } })).modifiedCount : 0;
  }

  async purgeAllJobs(): Promise<number> {
    return (await this.#jobs.deleteMany({})).deletedCount;
  }
}

/**
 * An Agenda backend keeping jobs in a Vigie store. Notifications are in-process: a job saved here is picked up
 * at once instead of at the next poll; other processes still see it when they poll.
 */
export class StoreAgendaBackend implements AgendaBackend {
  readonly name = 'vigie-store';
  readonly repository: StoreJobRepository;
  readonly notificationChannel = new InMemoryNotificationChannel();
  /** The store belongs to the kernel, which closes it after the scheduler stops. */
  readonly ownsConnection = false;

  constructor(store: Store, collection?: string) {
    this.repository = new StoreJobRepository(store, collection);
  }

  async connect(): Promise<void> {
    await this.repository.connect();
  }

  async disconnect(): Promise<void> {}
}
