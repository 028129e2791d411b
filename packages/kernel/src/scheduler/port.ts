import type { JobDefinition } from '../feature.js';
import type { Logger } from '../log.js';
import type { FeatureScope } from '../refs.js';
import type { JobStorePort } from './job-store.js';

export interface RetryPolicy {
  /** How many times a failed run is tried again. */
  attempts: number;
  /** Delay before the first retry, in milliseconds. */
  delayMs: number;
  /** `constant` (default) keeps the delay; `exponential` doubles it each time. */
  strategy?: 'constant' | 'exponential';
}

export interface JobOptions {
  /** Runs of this job at once in this process (Agenda's per-definition concurrency). Default 1. */
  concurrency?: number;
  /** How long a run may hold its lock before another worker may take the job over. Default 10 minutes. */
  lockLifetimeMs?: number;
  retry?: RetryPolicy;
  /** Recurring schedule (`'1 minute'`, a cron string or milliseconds) started with the scheduler. */
  every?: string | number;
}

/** One run of a job, handed to its handler. */
export interface JobRun<D = unknown> {
  id: string;
  name: string;
  data: D;
  /** Failed attempts before this one. */
  failCount: number;
  /** The scope of the feature that owns the job. */
  scope: FeatureScope;
  log: Logger;
  /** Extends the lock and records progress (0–100) for long runs. */
  touch(progress?: number): Promise<void>;
}

export interface ScheduledJob {
  id: string;
  name: string;
  data: unknown;
  nextRunAt: Date | null;
  lastRunAt: Date | null;
  lastFinishedAt: Date | null;
  failCount: number;
  failReason: string | null;
  lockedAt: Date | null;
}

/** The scheduler port. Jobs persist in the store, so a restart resumes what was pending. */
export interface Scheduler {
  /** Queues a run as soon as possible; returns the job id. */
  now<D>(name: string, data: D): Promise<string>;
  /** Queues a run at a given time. */
  at<D>(when: Date, name: string, data: D): Promise<string>;
  /** Jobs of a name, the earliest next run first. */
  list(name: string): Promise<ScheduledJob[]>;
  /** Removes the jobs of a name (optionally only those with matching data fields). */
  cancel(name: string, data?: Record<string, unknown>): Promise<number>;
  /** Jobs currently running in this process. */
  running(): number;
}

/** What the kernel drives of a scheduler: the port features see, plus the job definitions and the lifecycle. */
export interface SchedulerEngine extends Scheduler {
  /** Declares a job; its handler runs with the owning feature's scope. */
  define<D>(job: JobDefinition<D>, scope: FeatureScope): void;
  /** Starts taking runs (and schedules the recurring jobs). */
  start(): Promise<void>;
  /** Stops taking new runs and waits (up to `timeoutMs`) for running ones to finish. */
  drain(timeoutMs: number): Promise<{ running: number; timedOut: boolean }>;
}

export interface SchedulerFactoryContext {
  /** Where jobs persist: the store adapter's job store. */
  jobs: JobStorePort;
  /** `[server] jobs_poll_ms`: how often this process looks for due jobs. */
  processEveryMs: number;
  logger: Logger;
}

/** Builds the scheduler once the store is open (`createKernel({ scheduler })`; `@vigie/scheduler-agenda` is one). */
export type SchedulerFactory = (context: SchedulerFactoryContext) => SchedulerEngine;
