import { readdirSync, existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// One vitest project per workspace package; sources are used directly through the `vigie-source` export
// condition, so tests never need a build.
const roots = ['packages', 'apps'].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `${dir}/${d.name}`) : [],
);

export default defineConfig({
  // tsyringe needs legacy (TypeScript "experimental") decorators, also in test files outside a tsconfig's include.
  oxc: { decorator: { legacy: true } },
  resolve: { conditions: ['vigie-source'] },
  ssr: { resolve: { conditions: ['vigie-source'] } },
  test: {
    projects: roots.map((root) => ({
      extends: true,
      test: {
        name: root.split('/')[1],
        root,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        testTimeout: 30000,
        hookTimeout: 60000,
      },
    })),
  },
});
