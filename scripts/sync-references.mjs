#!/usr/bin/env node
// Keeps TypeScript project references in step with package.json: the root tsconfig.json lists every workspace
// package that has a tsconfig.json, and each package references the workspace packages it depends on, so
// `tsc -b` builds them in dependency order. Run by `pnpm build`; rewrites files only when they change.
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

writeIfChanged(join(root, 'tsconfig.json'), {
  files: [],
  references: dirs.map((dir) => ({ path: relative(root, dir) })).sort((a, b) => a.path.localeCompare(b.path)),
});
