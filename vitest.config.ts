import { readdirSync, existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// One vitest project per workspace package; sources are used directly through the `vigie-source` export
// condition, so tests never need a build.
const roots = ['packages', 'apps'].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `${dir}/${d.name}`) : [],
);

// Test files spend most of their time waiting (servers starting, the SQLite writer thread, brokers, child
// processes), so more files run at once than there are cores: vitest's default (cores - 1) is one file at a time on
// a 2-core machine. `VIGIE_TEST_WORKERS` overrides it.
const workers = Number(process.env.VIGIE_TEST_WORKERS) || Math.max(4, availableParallelism() * 2);

/** Files that run real processes, browsers, brokers or clocks for minutes whatever their size. */
const longRunning = /(browser|restart|crash|two-nodes|packed-install|scaffold|hostile|amqp)[^/]*\.test\.ts$/;

/**
 * The longest files first, across every project, so that none starts last and runs alone while the other workers
 * are idle. vitest's own order groups files by project name (the server's long suites came last) and, on a fresh
 * checkout without timings, sorts by size; here a file's last duration is used when vitest has one, else its size,
 * with the known long-running kinds ahead.
 */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (spec: TestSpecification) => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      const last = this.ctx.cache.getFileTestResults(key);
      if (last) return last.duration;
      return statSync(spec.moduleId).size * (longRunning.test(spec.moduleId) ? 100 : 1);
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    return [...files].sort((a, b) => weights.get(b)! - weights.get(a)!);
  }
}

export default defineConfig({
  // tsyringe needs legacy (TypeScript "experimental") decorators, also in test files outside a tsconfig's include.
  oxc: { decorator: { legacy: true } },
  resolve: { conditions: ['vigie-source'] },
  ssr: { resolve: { conditions: ['vigie-source'] } },
  test: {
    maxWorkers: workers,
    // A worker keeps the modules it loaded from one test file to the next instead of loading every package again
    // for each file: tests share no module state (each starts its own kernel, store and server).
    isolate: false,
    // `expect.poll` waits up to 30 s (vitest's default is 1 s) wherever the suite runs: a loaded machine may take that
    // long to show what a quiet one shows at once, and a passing poll never waits for it.
    expect: { poll: { timeout: 30_000 } },
    sequence: { sequencer: LongestFirstSequencer },
    projects: roots.map((root) => ({
      extends: true,
      test: {
        name: root.split('/')[1],
        root,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        // Long enough for a loaded machine (the suite must stay green with every core busy); a passing test never
        // waits for it.
        testTimeout: 120_000,
        hookTimeout: 120_000,
      },
    })),
  },
});
