import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, type JobDefinition, type FeatureScope } from '@vigie/kernel';
import { AgendaScheduler } from '@vigie/scheduler-agenda';
import { StoreJobStore } from '@vigie/store-jobs';
import { SqliteStore } from '../src/index.js';

const logger = createLogger({ level: 'silent' });

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Opens the store and a scheduler with the test's jobs, as a server process would at boot. */
function boot(path: string) {
  const store = new SqliteStore(path);
  const runs = store.collection('runs');
  const scheduler = new AgendaScheduler(new StoreJobStore(store), { processEveryMs: 50, logger });
  const jobs: JobDefinition<{ key: string }>[] = [
    {
      name: 'test.flaky',
      retry: { attempts: 2, delayMs: 100 },
      handler: async (run) => {
        await runs.insertOne({ _id: `flaky-${run.failCount}`, failCount: run.failCount });
        if (run.failCount === 0) throw new Error('first attempt fails on purpose');
      },
    },
    {
      name: 'test.later',
      handler: async (run) => {
        await runs.insertOne({ _id: `later-${run.data.key}` });
      },
    },
  ];
  const scope: FeatureScope = {
    featureId: 'jobs',
    resolve: () => {
      throw new Error('these jobs resolve nothing');
    },
  };
  for (const job of jobs) scheduler.define(job, scope);
  return { store, runs, scheduler };
}

describe('Agenda jobs kept in the sqlite store', () => {
  it('schedules, runs, retries, and keeps a pending job across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-jobs-'));
    const path = join(dir, 'store.sqlite');
    try {
      const first = boot(path);
      await first.scheduler.start();
      await first.scheduler.now('test.flaky', { key: 'f' });
      const runAt = new Date(Date.now() + 2500);
      await first.scheduler.at(runAt, 'test.later', { key: 'l' });
      await until(async () => (await first.runs.count({ _id: 'flaky-1' })) === 1, 'the retry of the flaky job');
      // The retry saw the failed attempt: the job's state (fail count) went through the store.
      expect(await first.runs.find({ _id: { $regex: '^flaky-' } }, { sort: { _id: 1 } })).toEqual([
        { _id: 'flaky-0', failCount: 0 },
        { _id: 'flaky-1', failCount: 1 },
      ]);
      expect(await first.runs.count({ _id: 'later-l' })).toBe(0);
      await first.scheduler.drain(1000);
      await first.store.close();

      const second = boot(path);
      const [pending] = await second.scheduler.list('test.later');
      expect(pending?.nextRunAt?.getTime()).toBe(runAt.getTime());
      await second.scheduler.start();
      await until(async () => (await second.runs.count({ _id: 'later-l' })) === 1, 'the job scheduled before the restart');
      expect(Date.now()).toBeGreaterThanOrEqual(runAt.getTime());
      expect(await second.runs.count({ _id: { $regex: '^flaky-' } })).toBe(2);
      await second.scheduler.drain(1000);
      await second.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
