import { readdirSync, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One vitest project per workspace package; sources are used directly through the `vigie-source` export
// condition, so tests never need a build.
const roots = ['packages', 'apps'].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `${dir}/${d.name}`) : [],
);

// Test files spend most of their time waiting (servers starting, the SQLite writer thread, brokers, child
// processes), so more files run at once than there are cores: vitest's default (cores - 1) is one file at a time on
// a 2-core machine. `VIGIE_TEST_WORKERS` overrides it.
const workers = Number(process.env.VIGIE_TEST_WORKERS) || Math.max(4, availableParallelism() * 2);

export default defineConfig({
  // tsyringe needs legacy (TypeScript "experimental") decorators, also in test files outside a tsconfig's include.
  oxc: { decorator: { legacy: true } },
  resolve: { conditions: ['vigie-source'] },
  ssr: { resolve: { conditions: ['vigie-source'] } },
  test: {
    maxWorkers: workers,
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
