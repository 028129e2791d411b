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
} from 'agenda';
import type { JobSelection, JobStorePort, StoredJob } from '@vigie/kernel';

// Agenda's job type differs from the port's only by its branded id: an Agenda job is a stored job as it is, the
// way back brands the id.
function toAgenda<D>(job: StoredJob): JobParameters<D> {
  return { ...job, _id: job._id === undefined ? undefined : toJobId(job._id) } as JobParameters<D>;
}

function toSelection(options: RemoveJobsOptions): JobSelection {
  return { ...options, id: options.id === undefined ? undefined : String(options.id), ids: options.ids?.map(String) };
}

/**
 * Agenda's job repository over the job store port. Job states (queued, running, failed, …) are Agenda's notion:
 * they are computed here from the stored fields, so a job store only stores and selects.
 */
export class JobStoreRepository implements JobRepository {
  readonly #jobs: JobStorePort;

  constructor(jobs: JobStorePort) {
    this.#jobs = jobs;
  }

  connect(): Promise<void> {
    return this.#jobs.open();
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const { state, skip = 0, limit = 0, ...query } = options;
    const now = new Date();
    const withState = (job: StoredJob): JobWithState => {
      const parameters = toAgenda(job);
      return { ...parameters, _id: toJobId(job._id ?? ''), state: computeJobState(parameters, now) };
    };
    if (!state) {
      const { jobs, total } = await this.#jobs.find({ ...query, skip, limit });
      return { jobs: jobs.map(withState), total };
    }
    // A state is not stored: every match is read and filtered here.
    const all = (await this.#jobs.find(query)).jobs.map(withState).filter((job) => (state === 'paused' ? job.disabled === true : job.state === state));
    return { jobs: limit > 0 ? all.slice(skip, skip + limit) : all.slice(skip), total: all.length };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    const now = new Date();
    const byName = new Map<string, JobsOverview>();
    for (const job of (await this.#jobs.find({})).jobs) {
      let overview = byName.get(job.name);
      if (!overview) {
        overview = { name: job.name, total: 0, running: 0, scheduled: 0, queued: 0, completed: 0, failed: 0, repeating: 0, paused: 0 };
        byName.set(job.name, overview);
      }
      overview.total += 1;
      overview[computeJobState(toAgenda(job), now)] += 1;
      if (job.disabled === true) overview.paused += 1;
    }
    return [...byName.values()];
  }

  async getDistinctJobNames(): Promise<string[]> {
    return [...new Set((await this.#jobs.find({})).jobs.map((job) => job.name))];
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    const job = await this.#jobs.findById(id);
    return job ? toAgenda(job) : null;
  }

  getQueueSize(): Promise<number> {
    return this.#jobs.countDue(new Date());
  }

  removeJobs(options: RemoveJobsOptions): Promise<number> {
    return this.#jobs.remove(toSelection(options));
  }

  async saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    return toAgenda<DATA>(await this.#jobs.save(job, options?.lastModifiedBy));
  }

  saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    return this.#jobs.saveState(job, options?.lastModifiedBy);
  }

  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    const locked = await this.#jobs.lock(job, new Date(), options?.lastModifiedBy);
    return locked ? toAgenda(locked) : undefined;
  }

  async unlockJob(job: JobParameters): Promise<void> {
    if (job._id) await this.#jobs.unlock(String(job._id));
  }

  unlockJobs(jobIds: readonly string[]): Promise<void> {
    return this.#jobs.unlockMany(jobIds.map(String));
  }

  async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters | undefined> {
    const next = await this.#jobs.lockNext(jobName, nextScanAt, lockDeadline, now ?? new Date(), options?.lastModifiedBy);
    return next ? toAgenda(next) : undefined;
  }

  disableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.#jobs.setDisabled(toSelection(options), true);
  }

  enableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.#jobs.setDisabled(toSelection(options), false);
  }

  purgeAllJobs(): Promise<number> {
    return this.#jobs.removeAll();
  }
}

/**
 * The Agenda backend of a job store. Notifications are in-process: a job saved here is picked up at once instead
 * of at the next poll; other processes still see it when they poll.
 */
export function jobStoreBackend(jobs: JobStorePort): AgendaBackend {
  const repository = new JobStoreRepository(jobs);
  return {
    name: 'vigie-job-store',
    repository,
    notificationChannel: new InMemoryNotificationChannel(),
    // The job store belongs to the store adapter, which the kernel closes after the scheduler stops.
    ownsConnection: false,
    // Agenda connects the backend only, not its repository.
    connect: () => repository.connect(),
    disconnect: async () => undefined,
  };
}
