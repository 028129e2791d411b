import type { JobParameters } from 'agenda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type JobStorePort } from '@vigie/kernel';
import { AgendaScheduler, JobStoreRepository } from '@vigie/scheduler-agenda';

export interface OpenedJobStore {
  jobs: JobStorePort;
  /** Called after each case: close the store, remove files, drop databases. */
  cleanup?: () => Promise<void>;
}

const minute = 60_000;

/** A job as Agenda hands it to its repository; `at` is the next run relative to now. */
function job(name: string, at: number | null, extra: Partial<JobParameters> = {}): JobParameters {
  return { name, priority: 0, nextRunAt: at === null ? null : new Date(Date.now() + at), type: 'normal', data: {}, ...extra };
}

type Case = [name: string, body: (repository: JobStoreRepository, jobs: JobStorePort) => Promise<void>];

/**
 * What Agenda expects of its job repository (the cases of Agenda's own repository suite, which its package does
 * not publish, plus what Vigie relies on), run through the kernel's Agenda adapter over the adapter's job store.
 */
const jobStoreConformanceCases: readonly Case[] = [
  [
    'saving a new job gives it an id; saving it again by id updates it',
    async (repo) => {
      const saved = await repo.saveJob(job('a', minute, { priority: 5, data: { v: 1 } }), undefined);
      expect(saved._id).toEqual(expect.any(String));
      expect(saved).toMatchObject({ name: 'a', priority: 5, type: 'normal', data: { v: 1 } });
      const updated = await repo.saveJob({ ...saved, priority: 20, data: { v: 2 } }, undefined);
      expect(updated._id).toBe(saved._id);
      expect(updated).toMatchObject({ priority: 20, data: { v: 2 } });
      expect((await repo.getJobById(String(saved._id)))?.data).toEqual({ v: 2 });
    },
  ],
  [
    'a single job exists once per name, and a due next run already stored is kept',
    async (repo) => {
      const first = await repo.saveJob(job('tick', -minute, { type: 'single', data: { run: 1 } }), undefined);
      const second = await repo.saveJob(job('tick', -minute / 2, { type: 'single', priority: 10, data: { run: 2 } }), undefined);
      expect(second._id).toBe(first._id);
      expect(second).toMatchObject({ priority: 10, data: { run: 2 } });
      expect(second.nextRunAt?.getTime()).toBe(first.nextRunAt?.getTime());
      expect((await repo.queryJobs({ name: 'tick' })).total).toBe(1);
    },
  ],
  [
    'a job with unique fields is saved once; insertOnly leaves the stored one as it is',
    async (repo) => {
      const first = await repo.saveJob(job('import', minute, { data: { id: 'x', n: 1 }, unique: { 'data.id': 'x' } }), undefined);
      const replaced = await repo.saveJob(job('import', minute, { data: { id: 'x', n: 2 }, unique: { 'data.id': 'x' } }), undefined);
      expect(replaced._id).toBe(first._id);
      expect(replaced.data).toEqual({ id: 'x', n: 2 });
      const kept = await repo.saveJob(job('import', minute, { data: { id: 'x', n: 3 }, unique: { 'data.id': 'x' }, uniqueOpts: { insertOnly: true } }), undefined);
      expect(kept.data).toEqual({ id: 'x', n: 2 });
      expect((await repo.queryJobs({ name: 'import' })).total).toBe(1);
    },
  ],
  [
    'the disabled flag and run fields survive a round trip; an unknown id reads as null',
    async (repo) => {
      const saved = await repo.saveJob(job('off', minute, { disabled: true, repeatInterval: '5 minutes' }), undefined);
      expect(await repo.getJobById(String(saved._id))).toMatchObject({ disabled: true, repeatInterval: '5 minutes' });
      await repo.removeJobs({ id: String(saved._id) });
      expect(await repo.getJobById(String(saved._id))).toBeNull();
    },
  ],
  [
    'queries select by name, names, search, id and data, page with skip and limit, and count every match',
    async (repo) => {
      const a1 = await repo.saveJob(job('job-a', minute, { data: { kind: 'alpha', deep: { n: 1 } } }), undefined);
      await repo.saveJob(job('job-b', 2 * minute, { data: { kind: 'beta', deep: { n: 2 } } }), undefined);
      await repo.saveJob(job('job-a', 3 * minute, { data: { kind: 'alpha', deep: { n: 3 } } }), undefined);
      await repo.saveJob(job('other', 4 * minute, { disabled: true }), undefined);
      expect((await repo.queryJobs()).total).toBe(4);
      expect((await repo.queryJobs({ name: 'job-a' })).jobs.map((j) => j.name)).toEqual(['job-a', 'job-a']);
      expect((await repo.queryJobs({ names: ['job-a', 'job-b'] })).total).toBe(3);
      expect((await repo.queryJobs({ search: 'JOB' })).total).toBe(3);
      expect((await repo.queryJobs({ id: String(a1._id) })).jobs.map((j) => j._id)).toEqual([a1._id]);
      expect((await repo.queryJobs({ data: { deep: { n: 2 } } })).jobs.map((j) => j.name)).toEqual(['job-b']);
      expect((await repo.queryJobs({ includeDisabled: false })).total).toBe(3);
      const page = await repo.queryJobs({ sort: { nextRunAt: 'asc' }, skip: 1, limit: 2 });
      expect(page.total).toBe(4);
      expect(page.jobs.map((j) => j.data)).toEqual([{ kind: 'beta', deep: { n: 2 } }, { kind: 'alpha', deep: { n: 3 } }]);
    },
  ],
  [
    'queries by state, the overview by name and the distinct names are computed from the stored fields',
    async (repo) => {
      await repo.saveJob(job('report', minute), undefined);
      await repo.saveJob(job('report', null, { lastFinishedAt: new Date() }), undefined);
      await repo.saveJob(job('report', minute, { failCount: 1, failedAt: new Date(), lastFinishedAt: new Date() }), undefined);
      await repo.saveJob(job('other', minute, { disabled: true }), undefined);
      expect((await repo.queryJobs({ state: 'completed' })).total).toBe(1);
      expect((await repo.queryJobs({ state: 'paused' })).jobs.map((j) => j.name)).toEqual(['other']);
      const overview = await repo.getJobsOverview();
      expect(overview.find((o) => o.name === 'report')).toMatchObject({ total: 3, completed: 1 });
      expect(overview.find((o) => o.name === 'other')).toMatchObject({ total: 1, paused: 1 });
      expect((await repo.getDistinctJobNames()).sort()).toEqual(['other', 'report']);
    },
  ],
  [
    'removal selects by name, id, ids, names to keep and data, and never removes everything by omission',
    async (repo) => {
      const one = await repo.saveJob(job('gone', minute), undefined);
      const two = await repo.saveJob(job('gone', minute, { data: { key: 'k' } }), undefined);
      await repo.saveJob(job('kept', minute), undefined);
      expect(await repo.removeJobs({})).toBe(0);
      expect(await repo.removeJobs({ name: 'nothing' })).toBe(0);
      expect(await repo.removeJobs({ name: 'gone', data: { key: 'k' } })).toBe(1);
      expect(await repo.getJobById(String(two._id))).toBeNull();
      expect(await repo.removeJobs({ ids: [String(one._id)] })).toBe(1);
      await repo.saveJob(job('gone', minute), undefined);
      expect(await repo.removeJobs({ notNames: ['kept'] })).toBe(1);
      expect((await repo.queryJobs()).jobs.map((j) => j.name)).toEqual(['kept']);
      expect(await repo.purgeAllJobs()).toBe(1);
      expect(await repo.getDistinctJobNames()).toEqual([]);
    },
  ],
  [
    'the queue size counts the jobs due now',
    async (repo) => {
      await repo.saveJob(job('due', -minute), undefined);
      await repo.saveJob(job('due', -minute / 2), undefined);
      await repo.saveJob(job('later', minute), undefined);
      expect(await repo.getQueueSize()).toBe(2);
    },
  ],
  [
    'a job locks once; unlocking one or several releases them',
    async (repo) => {
      const one = await repo.saveJob(job('lock', -1000), undefined);
      const two = await repo.saveJob(job('lock', -1000), undefined);
      const locked = await repo.lockJob(one, { lastModifiedBy: 'worker-1' });
      expect(locked?._id).toBe(one._id);
      expect(locked?.lockedAt).toBeInstanceOf(Date);
      expect(locked?.lastModifiedBy).toBe('worker-1');
      expect(await repo.lockJob(one, undefined)).toBeUndefined();
      await repo.unlockJob(locked as JobParameters);
      expect((await repo.getJobById(String(one._id)))?.lockedAt).toBeUndefined();
      await repo.lockJob(one, undefined);
      await repo.lockJob(two, undefined);
      await repo.unlockJobs([String(one._id), String(two._id)]);
      expect((await repo.queryJobs({ name: 'lock' })).jobs.map((j) => j.lockedAt)).toEqual([undefined, undefined]);
    },
  ],
  [
    'the next job to run is the earliest due, then the highest priority, enabled, and comes back locked',
    async (repo) => {
      const now = new Date();
      const scan = new Date(now.getTime() + 5000);
      const deadline = new Date(now.getTime() - 10 * minute);
      // The same due time for both, so that priority decides.
      const due = new Date(now.getTime() - minute);
      await repo.saveJob(job('run', null, { nextRunAt: due, priority: 5, data: { which: 'low' } }), undefined);
      await repo.saveJob(job('run', null, { nextRunAt: due, priority: 10, data: { which: 'high' } }), undefined);
      await repo.saveJob(job('run', -2 * minute, { disabled: true, data: { which: 'disabled' } }), undefined);
      await repo.saveJob(job('run', minute, { data: { which: 'future' } }), undefined);
      const first = await repo.getNextJobToRun('run', scan, deadline, now, undefined);
      expect(first?.data).toEqual({ which: 'high' });
      expect(first?.lockedAt?.getTime()).toBe(now.getTime());
      expect((await repo.getNextJobToRun('run', scan, deadline, now, undefined))?.data).toEqual({ which: 'low' });
      expect(await repo.getNextJobToRun('run', scan, deadline, now, undefined)).toBeUndefined();
      expect(await repo.getNextJobToRun('none', scan, deadline, now, undefined)).toBeUndefined();
    },
  ],
  [
    'a job whose lock expired is handed to another worker',
    async (repo) => {
      const saved = await repo.saveJob(job('stuck', -minute), undefined);
      await repo.lockJob(saved, undefined);
      const now = new Date(Date.now() + 20 * minute);
      const taken = await repo.getNextJobToRun('stuck', now, new Date(now.getTime() - 10 * minute), now, undefined);
      expect(taken?._id).toBe(saved._id);
      expect(taken?.lockedAt?.getTime()).toBe(now.getTime());
    },
  ],
  [
    'a run state is saved, including a cleared lock; a removed job cannot record one',
    async (repo) => {
      const saved = await repo.saveJob(job('state', -1000), undefined);
      const locked = (await repo.lockJob(saved, undefined)) as JobParameters;
      const at = new Date();
      await repo.saveJobState({ ...locked, lockedAt: undefined, lastRunAt: at, lastFinishedAt: at, failedAt: at, failCount: 1, failReason: 'boom', progress: 50 }, undefined);
      const stored = await repo.getJobById(String(saved._id));
      expect(stored).toMatchObject({ lastRunAt: at, lastFinishedAt: at, failedAt: at, failCount: 1, failReason: 'boom', progress: 50 });
      expect(stored?.lockedAt).toBeUndefined();
      await repo.removeJobs({ id: String(saved._id) });
      await expect(repo.saveJobState(locked, undefined)).rejects.toThrow();
    },
  ],
  [
    'disabling and enabling selected jobs counts the changed ones',
    async (repo) => {
      await repo.saveJob(job('toggle', minute), undefined);
      await repo.saveJob(job('toggle', minute), undefined);
      await repo.saveJob(job('other', minute), undefined);
      expect(await repo.disableJobs({ name: 'toggle' })).toBe(2);
      expect((await repo.queryJobs({ includeDisabled: false })).total).toBe(1);
      expect(await repo.enableJobs({ names: ['toggle'] })).toBe(2);
      expect(await repo.disableJobs({})).toBe(0);
    },
  ],
  [
    'the scheduler runs, retries and lists jobs kept in this store',
    async (_repo, jobs) => {
      const scheduler = new AgendaScheduler(jobs, { processEveryMs: 50, logger: createLogger({ level: 'silent' }) });
      const attempts: number[] = [];
      scheduler.define(
        {
          name: 'conformance.flaky',
          retry: { attempts: 1, delayMs: 50 },
          handler: async (run) => {
            attempts.push(run.failCount);
            if (run.failCount === 0) throw new Error('first attempt fails on purpose');
          },
        },
        { featureId: 'conformance', resolve: () => Promise.reject(new Error('conformance jobs resolve nothing')) as never },
      );
      try {
        await scheduler.start();
        const later = new Date(Date.now() + 10 * minute);
        await scheduler.at(later, 'conformance.flaky', { key: 'later' });
        await scheduler.now('conformance.flaky', { key: 'now' });
        await expect.poll(() => attempts, { timeout: 10_000 }).toEqual([0, 1]);
        // The run that succeeded is removed once the scheduler has saved its outcome, just after the handler returned.
        await expect
          .poll(async () => (await scheduler.list('conformance.flaky')).map((j) => [j.data, j.nextRunAt?.getTime()]), { timeout: 10_000 })
          .toEqual([[{ key: 'later' }, later.getTime()]]);
        expect(await scheduler.cancel('conformance.flaky', { key: 'later' })).toBe(1);
      } finally {
        await scheduler.drain(1000);
      }
    },
  ],
];

/**
 * Registers the job store conformance suite with vitest. `open` is called before each case and must give an
 * empty job store; `cleanup` runs after the case.
 */
export function describeJobStoreConformance(adapterName: string, open: () => Promise<OpenedJobStore>): void {
  describe(`job store conformance: ${adapterName}`, () => {
    let opened: OpenedJobStore | undefined;
    let repository: JobStoreRepository | undefined;
    beforeEach(async () => {
      opened = await open();
      repository = new JobStoreRepository(opened.jobs);
      await repository.connect();
    });
    afterEach(async () => {
      await opened?.cleanup?.();
      opened = undefined;
    });
    for (const [name, body] of jobStoreConformanceCases) {
      it(name, async () => {
        await body(repository as JobStoreRepository, (opened as OpenedJobStore).jobs);
      });
    }
  });
}
