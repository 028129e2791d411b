/**
 * The job store port: where the scheduler keeps its jobs. Store adapters provide one beside their store
 * (`@vigie/store-jobs` keeps jobs in any store port); the kernel turns it into what its scheduler library needs,
 * so neither the store port nor adapters depend on that library.
 *
 * A job's fields are the scheduler's persistence schema: dates are `Date`s here, whatever the store keeps.
 */
export interface StoredJob {
  /** Absent on a job not saved yet; the store chooses it. */
  _id?: string;
  name: string;
  /** Higher runs first among jobs due at the same time. */
  priority: number;
  /** null: the job does not run again (completed one-off, or never scheduled). */
  nextRunAt: Date | null;
  /** `single`: a recurring job of which one exists per name; `normal`: any other. */
  type: 'normal' | 'single';
  data: unknown;
  lockedAt?: Date;
  lastRunAt?: Date;
  lastFinishedAt?: Date;
  failedAt?: Date;
  failCount?: number;
  failReason?: string;
  repeatInterval?: string | number;
  repeatTimezone?: string;
  repeatAt?: string;
  disabled?: boolean;
  progress?: number;
  /** Fields identifying the job among those of its name: saving it again updates that one instead of adding. */
  unique?: Record<string, unknown>;
  /** `insertOnly`: a job matching `unique` is left as it is. */
  uniqueOpts?: { insertOnly?: boolean; debounce?: unknown };
  debounceStartedAt?: Date;
  lastModifiedBy?: string;
  fork?: boolean;
  startDate?: Date;
  endDate?: Date;
  skipDays?: number[];
}

/** Jobs to act on; the criteria given all apply. Selecting nothing acts on nothing. */
export interface JobSelection {
  id?: string;
  ids?: readonly string[];
  name?: string;
  names?: readonly string[];
  notNames?: readonly string[];
  /** Matches jobs whose data contains these fields (nested objects compare field by field). */
  data?: unknown;
}

export type JobSortField = 'nextRunAt' | 'lastRunAt' | 'lastFinishedAt' | 'priority' | 'name' | 'data';

export interface JobQuery {
  id?: string;
  ids?: readonly string[];
  name?: string;
  names?: readonly string[];
  /** Case-insensitive substring of the name. */
  search?: string;
  data?: unknown;
  /** false: disabled jobs are left out. */
  includeDisabled?: boolean;
  /** Latest next run first when absent. */
  sort?: Partial<Record<JobSortField, 'asc' | 'desc'>>;
  skip?: number;
  /** 0 or absent: no limit. */
  limit?: number;
}

export interface JobStorePort {
  /** Prepares the store (indexes); called once before any other method. */
  open(): Promise<void>;
  /** The matching jobs (after `skip`, at most `limit`) and how many match in all. */
  find(query: JobQuery): Promise<{ jobs: StoredJob[]; total: number }>;
  findById(id: string): Promise<StoredJob | null>;
  /** Jobs due before `now`. */
  countDue(now: Date): Promise<number>;
  /**
   * Inserts or updates a job: by `_id` when it has one; a `single` job by name (a due `nextRunAt` already stored
   * is kept, so a restart does not postpone it); a job with `unique` by those fields. Returns the job as stored.
   */
  save(job: StoredJob, modifiedBy?: string): Promise<StoredJob>;
  /** Records a run's progress fields (lock, run and failure dates, counts); fails if the job no longer exists. */
  saveState(job: StoredJob, modifiedBy?: string): Promise<void>;
  /** Locks this job if it is still unlocked, enabled and due when it was read; undefined when it was not. */
  lock(job: StoredJob, now: Date, modifiedBy?: string): Promise<StoredJob | undefined>;
  /** Atomically locks and returns the next job of a name due by `nextScanAt`, or whose lock expired by `lockDeadline`. */
  lockNext(name: string, nextScanAt: Date, lockDeadline: Date, now: Date, modifiedBy?: string): Promise<StoredJob | undefined>;
  /** Releases the lock of a job that still has a next run. */
  unlock(id: string): Promise<void>;
  unlockMany(ids: readonly string[]): Promise<void>;
  remove(selection: JobSelection): Promise<number>;
  /** Disables or enables the selected jobs; returns how many changed. */
  setDisabled(selection: JobSelection, disabled: boolean): Promise<number>;
  removeAll(): Promise<number>;
}
