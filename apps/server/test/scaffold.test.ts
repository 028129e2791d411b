import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '@vigie/kernel-testing';
import { runCli, type CliIo } from '../src/index.js';

const run = promisify(execFile);
const root = repositoryRoot;
const name = `scaffold-check-${process.pid}`;
const dir = join(root, 'packages', name);
const changeset = join(root, '.changeset', `${name}-initial.md`);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(changeset, { force: true });
});

function io(cwd: string): CliIo & { stdout: string; stderr: string } {
  const captured = {
    stdout: '',
    stderr: '',
    out: (text: string) => void (captured.stdout += text),
    err: (text: string) => void (captured.stderr += text),
    readStdin: async () => '',
    env: {},
    cwd: () => cwd,
  };
  return captured;
}

/** Links the new package's dependencies as `pnpm install` would (the workspace packages, the registry ones). */
function linkDependencies(): void {
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@vigie'), { recursive: true });
  symlinkSync(join(root, 'packages', 'kernel'), join(modules, '@vigie', 'kernel'));
  symlinkSync(join(root, 'packages', 'testkit'), join(modules, '@vigie', 'testkit'));
  symlinkSync(join(root, 'packages', 'feature-kit'), join(modules, '@vigie', 'feature-kit'));
  symlinkSync(join(root, 'packages', 'input'), join(modules, '@vigie', 'input'));
  for (const dependency of ['tsyringe', 'yup', 'vitest']) symlinkSync(realpathSync(join(root, 'packages', 'broadcast', 'node_modules', dependency)), join(modules, dependency));
}

describe('vigie new feature', () => {
  it('scaffolds a workspace feature package that builds, type-checks and passes its own test as generated', async () => {
    const cli = io(join(root, 'apps', 'server'));
    expect(await runCli(['new', 'feature', name], cli)).toBe(0);
    expect(cli.stdout).toContain(`created workspace package ${dir}`);
    for (const file of ['package.json', 'tsconfig.json', 'README.md', 'src/index.ts', 'src/feature.ts', 'src/di.ts', 'src/routes.ts', 'src/schemas.ts', 'src/errors.ts', `src/${name}-service.ts`, `src/${name}-repository.ts`, `test/${name}.http.test.ts`]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({
      name: `@vigie/${name}`,
      peerDependencies: { '@vigie/kernel': 'workspace:^', tsyringe: '^4.10.0', yup: '^1.7.1' },
      devDependencies: { '@vigie/kernel': 'workspace:^' },
    });
    expect(readFileSync(changeset, 'utf8')).toContain(`"@vigie/${name}": minor`);

    linkDependencies();
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    // The packages its test uses are built too: the check below reads their declarations.
    const used = ['kernel', 'testkit', 'feature-kit', 'input'];
    await run(tsc, ['-b', dir, ...used.map((name) => join(root, 'packages', name))], { cwd: root });
    expect(existsSync(join(dir, 'dist', 'index.js'))).toBe(true);
    // The test file too, as the repository's typecheck sees it: through the vigie-source condition, the packages it uses
    // read from the declarations their build wrote (the references), its own sources checked.
    const references = used.map((name) => ({ path: `../${name}` }));
    writeFileSync(join(dir, 'tsconfig.check.json'), JSON.stringify({ extends: '../../tsconfig.test.json', compilerOptions: { incremental: false }, include: ['src', 'test'], references }));
    await run(tsc, ['-p', join(dir, 'tsconfig.check.json')], { cwd: root });
    const tests = await run(join(root, 'node_modules', '.bin', 'vitest'), ['run', '--project', name], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    expect(tests.stdout).toMatch(/Tests\s+3 passed/);
  }, 240000);

  it('refuses a name that is not kebab-case and a directory that is not empty', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'vigie-scaffold-'));
    try {
      const bad = io(cwd);
      expect(await runCli(['new', 'feature', 'Bad_Name'], bad)).toBe(1);
      expect(bad.stderr).toContain('must be kebab-case');
      writeFileSync(join(cwd, 'keep.txt'), 'x');
      const full = io(cwd);
      expect(await runCli(['new', 'feature', 'thing', '--dir', '.'], full)).toBe(1);
      expect(full.stderr).toContain('exists and is not empty');
      const plugin = io(cwd);
      expect(await runCli(['new', 'feature', 'thing'], plugin)).toBe(0);
      expect(plugin.stdout).toContain(`created plugin package ${join(cwd, 'thing')}`);
      expect(JSON.parse(readFileSync(join(cwd, 'thing', 'package.json'), 'utf8'))).toMatchObject({
        name: 'vigie-thing',
        peerDependencies: { '@vigie/kernel': '^0.1.0', tsyringe: '^4.10.0', yup: '^1.7.1' },
        devDependencies: { '@vigie/kernel': '^0.1.0' },
      });
      expect(existsSync(join(cwd, 'thing', 'vitest.config.ts'))).toBe(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
