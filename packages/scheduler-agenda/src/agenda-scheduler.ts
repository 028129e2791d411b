import { Agenda, constant, exponential, type Job } from 'agenda';
import type { FeatureScope, JobDefinition, JobRun, JobStorePort, Logger, ScheduledJob, SchedulerEngine, SchedulerFactory } from '@vigie/kernel';
import { jobStoreBackend } from './agenda-backend.js';

export interface AgendaSchedulerOptions {
  /** How often this process polls for due jobs (ms). Saved jobs are also picked up at once in-process. */
  processEveryMs: number;
  logger: Logger;
  /** Name recorded on locks, to tell workers apart. */
  workerName?: string;
}

/** The scheduler port over Agenda 6, keeping its jobs in a job store. */
export class AgendaScheduler implements SchedulerEngine {
  readonly #agenda: Agenda;
  readonly #logger: Logger;
  readonly #recurring: { name: string; every: string | number }[] = [];
  #running = 0;
  #started = false;

  constructor(jobs: JobStorePort, options: AgendaSchedulerOptions) {
    this.#logger = options.logger;
    this.#agenda = new Agenda({
      backend: jobStoreBackend(jobs),
      name: options.workerName ?? `vigie-${process.pid}`,
      processEvery: options.processEveryMs,
      defaultConcurrency: 1,
      // A one-off job that succeeded has nothing left to say (features keep their own records, e.g. import
      // statuses); keeping it would only make every poll scan more documents. Failed ones stay for inspection.
      removeOnComplete: true,
    });
    this.#agenda.on('error', (err: unknown) => this.#logger.error({ err }, 'scheduler error'));
  }

  /** Declares a job; its handler runs with the owning feature's scope. */
  define<D>(job: JobDefinition<D>, scope: FeatureScope): void {
    const retry = job.retry;
    const backoff = retry
      ? retry.strategy === 'exponential'
        ? exponential({ delay: retry.delayMs, factor: 2, maxRetries: retry.attempts })
        : constant({ delay: retry.delayMs, maxRetries: retry.attempts })
      : undefined;
    this.#agenda.define(
      job.name,
      async (agendaJob: Job<D>) => {
        this.#running += 1;
        const log = this.#logger.child({ job: job.name, jobId: String(agendaJob.attrs._id) });
        const run: JobRun<D> = {
          id: String(agendaJob.attrs._id),
          name: job.name,
          data: agendaJob.attrs.data,
          failCount: agendaJob.attrs.failCount ?? 0,
          scope,
          log,
          touch: async (progress?: number) => {
            await agendaJob.touch(progress);
          },
        };
        try {
          await job.handler(run);
        } catch (err) {
          log.warn({ err }, 'job run failed');
          throw err;
        } finally {
          this.#running -= 1;
        }
      },
      {
        concurrency: job.concurrency ?? 1,
        lockLifetime: job.lockLifetimeMs ?? 10 * 60 * 1000,
        ...(backoff ? { backoff } : {}),
      },
    );
    if (job.every !== undefined) this.#recurring.push({ name: job.name, every: job.every });
  }

  async start(): Promise<void> {
    if (this.#started) return;
    await this.#agenda.start();
    for (const { name, every } of this.#recurring) await this.#agenda.every(every, name);
    this.#started = true;
  }

  /** Stops taking new runs and waits (up to `timeoutMs`) for running ones to finish. */
  async drain(timeoutMs: number): Promise<{ running: number; timedOut: boolean }> {
    if (!this.#started) return { running: 0, timedOut: false };
    const result = await this.#agenda.drain({ timeout: timeoutMs, closeConnection: false });
    this.#started = false;
    return { running: result.running, timedOut: result.timedOut };
  }

  async now<D>(name: string, data: D): Promise<string> {
    const job = await this.#agenda.now(name, data);
    return String(job.attrs._id);
  }

  async at<D>(when: Date, name: string, data: D): Promise<string> {
    const job = await this.#agenda.schedule(when, name, data);
    return String(job.attrs._id);
  }

  async list(name: string): Promise<ScheduledJob[]> {
    const { jobs } = await this.#agenda.queryJobs({ name, sort: { nextRunAt: 'asc' } });
    return jobs.map((j) => ({
      id: String(j._id),
      name: j.name,
      data: j.data,
      nextRunAt: j.nextRunAt ?? null,
      lastRunAt: j.lastRunAt ?? null,
      lastFinishedAt: j.lastFinishedAt ?? null,
      failCount: j.failCount ?? 0,
      failReason: j.failReason ?? null,
      lockedAt: j.lockedAt ?? null,
    }));
  }

  async cancel(name: string, data?: Record<string, unknown>): Promise<number> {
    return this.#agenda.cancel({ name, ...(data ? { data } : {}) });
  }

  running(): number {
    return this.#running;
  }
}

/**
 * The kernel's scheduler, run by Agenda over the store adapter's job store: what `createKernel({ scheduler })`
 * takes. `workerName` names this process on job locks (`vigie-<pid>` by default).
 */
export function agendaSchedulerFactory(options: { workerName?: string } = {}): SchedulerFactory {
  return ({ jobs, processEveryMs, logger }) => new AgendaScheduler(jobs, { processEveryMs, logger, ...options });
}
