#!/usr/bin/env node
// Keeps TypeScript project references in step with package.json: the root tsconfig.json (and tsconfig.test.json) lists
// every workspace package that has a tsconfig.json, and each package references the workspace packages it depends on,
// so `tsc -b` builds them in dependency order. Run by `pnpm build`; rewrites files only when they change.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dirs = ['packages', 'apps']
  .filter((d) => existsSync(join(root, d)))
  .flatMap((d) => readdirSync(join(root, d), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(root, d, e.name)))
  .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsconfig.json')));

const byName = new Map(dirs.map((dir) => [JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name, dir]));

function writeIfChanged(file, value) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}

for (const dir of dirs) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  // Dev dependencies are only used by tests, which tsc -b does not compile; listing them would create cycles.
  const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).filter((name) => byName.has(name));
  const tsconfigPath = join(dir, 'tsconfig.json');
  const tsconfig = JSON.parse(readFileSync(tsconfigPath, 'utf8'));
  const references = deps.sort().map((name) => ({ path: relative(dir, byName.get(name)) }));
  if (references.length > 0) tsconfig.references = references;
  else delete tsconfig.references;
  writeIfChanged(tsconfigPath, tsconfig);
}

const everyPackage = dirs.map((dir) => ({ path: relative(root, dir) })).sort((a, b) => a.path.localeCompare(b.path));
writeIfChanged(join(root, 'tsconfig.json'), { files: [], references: everyPackage });

// The test typecheck references every package too: its imports of package sources then read the declarations
// `tsc -b tsconfig.json` just wrote instead of checking every source a second time.
const testConfigPath = join(root, 'tsconfig.test.json');
writeIfChanged(testConfigPath, { ...JSON.parse(readFileSync(testConfigPath, 'utf8')), references: everyPackage });
