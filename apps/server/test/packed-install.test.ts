// The packages as users get them: every public package packed with `pnpm pack`, installed with plain npm in an
// empty directory outside the workspace (third-party dependencies come from the npm registry), then used there by an
// embedding program, by the example plugin's own build and tests, and by `vigie serve` loading that plugin.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot as root } from '@vigie/kernel-testing';

const exec = promisify(execFile);
const minutes = (n: number) => n * 60_000;

let work: string;
let app: string;
const pluginSource = () => join(app, 'vigie-hello');

/** Runs a command, failing with its output (the interesting part when npm or tsc refuses). */
async function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await exec(command, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`);
  }
}

/**
 * The SQLite driver's native addon as its install script (prebuild-install) finds it on a user's machine: a prebuilt
 * binary for this Node ABI and platform. Users download it from the driver's releases; this machine has no internet
 * beyond the npm registry, so the workspace's own build of the same version stands in for it, instead of a compile
 * from source that takes minutes of CPU. Answers the version to install and the environment that points to it.
 */
function sqlitePrebuild(dir: string): { version: string; env: Record<string, string> } {
  const driver = dirname(createRequire(join(root, 'packages', 'store-sqlite', 'package.json')).resolve('better-sqlite3/package.json'));
  const { version } = JSON.parse(readFileSync(join(driver, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(dir, { recursive: true });
  const tarball = join(dir, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  execFileSync('tar', ['-czf', tarball, '-C', driver, 'build/Release/better_sqlite3.node']);
  return { version, env: { npm_config_better_sqlite3_local_prebuilds: dir } };
}
let prebuildEnv: Record<string, string> = {};

/** npm without the registry's noise; swagger-ui-dist's install-time analytics (scarf) stay off. */
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd, { SCARF_ANALYTICS: 'false', npm_config_update_notifier: 'false', ...prebuildEnv });

/**
 * The checkout's public packages (tracked by git: a package another test creates meanwhile is not one), with their
 * tarball file names (`@vigie/kernel` ⇒ `vigie-kernel-0.1.0.tgz`).
 */
async function publicPackages(): Promise<{ name: string; tarball: string }[]> {
  const manifests = (await run('git', ['ls-files', 'packages/*/package.json', 'apps/*/package.json'], root)).trim().split('\n');
  return manifests
    .map((file) => JSON.parse(readFileSync(join(root, file), 'utf8')) as { name: string; version: string; private?: boolean })
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => ({ name: manifest.name, tarball: `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz` }));
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'vigie-packed-'));
  app = join(work, 'app');
  mkdirSync(app);
  const tarballs = join(work, 'tarballs');
  const prebuild = sqlitePrebuild(join(work, 'prebuilds'));
  prebuildEnv = prebuild.env;
  await run(join(root, 'node_modules', '.bin', 'tsc'), ['-b', 'tsconfig.json'], root);
  const packages = await publicPackages();
  await run('npx', ['-y', 'pnpm@10', '-r', ...packages.flatMap((p) => ['--filter', p.name]), 'pack', '--pack-destination', tarballs], root);

  // Every @vigie package from its tarball, also where another package depends on it (overrides), never the registry.
  const local = Object.fromEntries(packages.map((p) => [p.name, `file:${join(tarballs, p.tarball)}`]));
  const manifest = {
    name: 'vigie-packed-install-check',
    private: true,
    type: 'module',
    dependencies: { ...local, 'better-sqlite3': prebuild.version, '@koa/router': '^15.7.0', '@types/node': '^20.19.0', typescript: '~5.9.3', vitest: '~4.1.12' },
    overrides: local,
  };
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  await npm(['install'], app);

  // The example plugin, built and packed by its author against the installed packages, then installed by a deployer.
  cpSync(join(root, 'examples', 'vigie-hello'), pluginSource(), { recursive: true, filter: (src) => !/node_modules|dist/.test(src) });
  await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], pluginSource());
  const packed = (await npm(['pack', '--pack-destination', work], pluginSource())).trim().split('\n').pop() as string;
  await npm(['install', join(work, packed)], app);
}, minutes(15));

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed packages, installed with npm outside the workspace', () => {
  it('type-check and run an application embedding Vigie (embedded store, built-in features, one of its own)', async () => {
    const dir = join(app, 'embedding');
    mkdirSync(dir);
    cpSync(join(root, 'apps', 'server', 'test', 'fixtures', 'embedding', 'embed.ts'), join(dir, 'embed.ts'));
    // Library declarations are checked too (no skipLibCheck): published types must be complete.
    const tsconfig = {
      compilerOptions: { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', types: ['node'] },
      files: ['embed.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], dir);
    const output = await run(process.execPath, [join(dir, 'dist', 'embed.js'), join(work, 'embedded-install')], dir);
    const result = JSON.parse(output.trim().split('\n').pop() as string) as Record<string, unknown>;
    // The repository's source condition (.pnpmfile.cjs strips it at pack time) is not published.
    expect(readFileSync(join(app, 'node_modules', '@vigie', 'kernel', 'package.json'), 'utf8')).not.toContain('vigie-source');
    expect(result).toEqual({
      created: { status: 200, body: { _id: 'item-0', owner: 'root' } },
      listed: { status: 200, body: [{ _id: 'item-0', owner: 'root' }] },
      builtIn: { status: 200, body: [] },
      anonymous: 401,
      documented: ['/api/v2/inventory'],
    });
  }, minutes(3));

  it('hold one copy of the kernel: packages and plugins take it (and tsyringe, yup) as peer dependencies', async () => {
    const copies = (await run('find', ['.', '-path', '*/node_modules/@vigie/kernel/package.json'], app)).trim().split('\n');
    expect(copies).toEqual(['./node_modules/@vigie/kernel/package.json']);
    const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const dir of [join(app, 'node_modules', '@acme', 'vigie-hello'), join(app, 'node_modules', '@vigie', 'alarms')]) {
      const { dependencies = {}, peerDependencies = {} } = manifest(dir);
      expect(Object.keys(peerDependencies)).toEqual(expect.arrayContaining(['@vigie/kernel', 'tsyringe', 'yup']));
      expect(Object.keys(dependencies)).not.toEqual(expect.arrayContaining(['@vigie/kernel']));
    }
  });

  it('refuse, naming it, a plugin that brings a second copy of the kernel', async () => {
    const nested = join(app, 'node_modules', '@acme', 'vigie-hello', 'node_modules', '@vigie', 'kernel');
    cpSync(join(app, 'node_modules', '@vigie', 'kernel'), nested, { recursive: true });
    try {
      // Inside the application directory, so that the plugin resolves from its node_modules as a deployer's would.
      const dir = join(app, 'second-kernel');
      mkdirSync(join(dir, 'etc'), { recursive: true });
      writeFileSync(join(dir, 'etc', 'webserver.conf'), '[server]\nport = 0\nplugins = @acme/vigie-hello\n');
      const refused = await run(join(app, 'node_modules', '.bin', 'vigie'), ['serve', '--install-dir', dir], app, { VIGIE_ADMIN_PASSWORD: 'x' }).then(
        () => '',
        (err: Error) => err.message,
      );
      expect(refused).toContain("feature hello was defined with another copy of @vigie/kernel");
    } finally {
      rmSync(join(app, 'node_modules', '@acme', 'vigie-hello', 'node_modules'), { recursive: true, force: true });
    }
  }, minutes(3));

  it("pass the example plugin's own tests", async () => {
    const output = await run(join(app, 'node_modules', '.bin', 'vitest'), ['run'], pluginSource(), { NO_COLOR: '1' });
    expect(output).toMatch(/Tests\s+8 passed/);
  }, minutes(3));

  it('scaffold, with `vigie new feature`, a plugin package that builds and passes its test as generated', async () => {
    const output = await run(join(app, 'node_modules', '.bin', 'vigie'), ['new', 'feature', 'asset-tags'], app);
    expect(output).toContain(`created plugin package ${join(app, 'asset-tags')}`);
    const dir = join(app, 'asset-tags');
    const generated = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies: Record<string, string> };
    expect(Object.keys(generated.peerDependencies).sort()).toEqual(['@vigie/kernel', 'tsyringe', 'yup']);
    // The feature kit and the input helpers are stateless: a plugin may bring its own copies.
    expect(Object.keys(generated.dependencies ?? {})).toEqual(['@vigie/feature-kit', '@vigie/input']);
    await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], dir);
    expect(await run(join(app, 'node_modules', '.bin', 'vitest'), ['run'], dir, { NO_COLOR: '1' })).toMatch(/Tests\s+3 passed/);
  }, minutes(3));

  it('run `vigie serve` loading the example plugin through [server] plugins', async () => {
    mkdirSync(join(app, 'etc'), { recursive: true });
    writeFileSync(join(app, 'etc', 'webserver.conf'), '[server]\nport = 0\nplugins = @acme/vigie-hello\n\n[hello]\ngreeting = Bonjour\n');
    const password = 'deployer secret';
    const child = spawn(join(app, 'node_modules', '.bin', 'vigie'), ['serve', '--install-dir', app], {
      cwd: app,
      env: { ...process.env, VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: password, VIGIE_LOG__LEVEL: 'warn' },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /Vigie listens on (\S+)/.exec(stderr);
          if (match) resolve(match[1] as string);
        });
        child.once('exit', (code) => reject(new Error(`vigie serve exited with ${code}:\n${stderr}`)));
      });
      const headers = { authorization: `Basic ${Buffer.from(`root:${password}`).toString('base64')}` };
      const get = async (path: string) => {
        const res = await fetch(`${url}${path}`, { headers });
        return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? ((await res.json()) as Record<string, unknown>) : await res.text() };
      };
      expect(await get('/api/v2/hello')).toMatchObject({ status: 200, body: { greeting: 'Bonjour, root!' } });
      expect(await get('/api/v2/hello/legacy/greetings/ada')).toEqual({ status: 200, body: { message: 'Bonjour, ada!' } });
      expect((await fetch(`${url}/api/v2/hello/legacy/ping`)).status).toBe(401);
      const document = (await get('/api/v2/openapi.json')).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
      expect(document.paths['/api/v2/hello']?.get?.summary).toBe('Greets the caller, with the plugin counters');
      expect(document.paths['/api/v2/hello/legacy/ping']?.get?.['x-vigie-undocumented']).toBe(true);
      const page = await get('/api/v2/docs');
      expect(page.status).toBe(200);
      expect(await get('/api/v2/docs/swagger-ui-bundle.js')).toMatchObject({ status: 200 });
      expect(await get('/metrics')).toMatchObject({ status: 200, body: expect.stringContaining('route="/api/v2/hello"') });
      // The console ships its built application in the package, and the plugin's extension reaches it.
      const consolePage = (await get('/')).body as string;
      const [script] = /\/console\/assets\/index-[\w-]+\.js/.exec(consolePage) ?? [];
      expect(await get(script ?? '/console/assets/none.js')).toMatchObject({ status: 200 });
      expect(await get('/api/v2/console/extensions')).toMatchObject({ status: 200, body: { extensions: [expect.objectContaining({ id: 'hello', module: '/api/v2/hello/console.js' })] } });
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, minutes(3));
});
