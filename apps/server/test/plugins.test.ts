import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kernel } from '@vigie/kernel';
import { createServerKernel } from '../src/index.js';

let installDir: string;
let kernel: Kernel | undefined;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-plugins-'));
});
afterEach(async () => {
  await kernel?.stop();
  kernel = undefined;
  rmSync(installDir, { recursive: true, force: true });
});

/** Writes an npm package into `<install>/node_modules`, as `npm install` would have. */
function installPackage(name: string, manifest: Record<string, unknown>, files: Record<string, string>): void {
  const dir = join(installDir, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', ...manifest }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

function configure(plugins: string): void {
  mkdirSync(join(installDir, 'etc'), { recursive: true });
  writeFileSync(join(installDir, 'etc', 'webserver.conf'), `[server]\nport = 0\nfeatures = auth\nplugins = ${plugins}\n`);
}

const env = { VIGIE_ADMIN_USER: 'root', VIGIE_ADMIN_PASSWORD: 'root password', VIGIE_LOG__LEVEL: 'silent' };
const greeting = (kernelRange: string) => `export const greetingFeature = {
  id: 'greeting',
  kernel: ${JSON.stringify(kernelRange)},
  register(f) {
    f.route({ method: 'GET', path: '/api/v2/greeting', right: 'greeting:read', handler: (ctx) => ({ hello: ctx.state.user.name }) });
  },
};
`;

describe('[server] plugins', () => {
  it('loads features from packages installed in the installation directory, through their import export', async () => {
    installPackage('@acme/vigie-greeting', { exports: { '.': { types: './index.d.ts', 'vigie-source': './missing.ts', import: './dist/index.js' } } }, { 'dist/index.js': greeting('^0.1.0') });
    installPackage('vigie-plain', { main: 'main.js' }, { 'main.js': "export default { id: 'plain', kernel: '>=0.1.0', register() {} };\n" });
    configure('@acme/vigie-greeting, vigie-plain');
    kernel = await createServerKernel({ installDir, env });
    expect(kernel.featureIds()).toEqual(expect.arrayContaining(['auth', 'greeting', 'plain']));
    const { url } = await kernel.start();
    const res = await fetch(`${url}/api/v2/greeting`, { headers: { authorization: `Basic ${Buffer.from('root:root password').toString('base64')}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hello: 'root' });
    expect((await fetch(`${url}/api/v2/greeting`)).status).toBe(401);
  });

  it('says where it looked for a package that is not installed', async () => {
    configure('vigie-absent');
    await expect(createServerKernel({ installDir, env })).rejects.toThrow(
      `plugin vigie-absent: package not found in ${join(installDir, 'node_modules')} (nor in a parent directory's node_modules); install it with \`npm install vigie-absent\` in ${installDir}`,
    );
  });

  it('refuses a package that exports no feature, or several', async () => {
    installPackage('vigie-empty', { exports: './index.js' }, { 'index.js': 'export const version = 1;\n' });
    configure('vigie-empty');
    await expect(createServerKernel({ installDir, env })).rejects.toThrow(
      'plugin vigie-empty exports no feature definition (expected a default or named export made with defineFeature from @vigie/kernel; found version)',
    );
    installPackage('vigie-two', { exports: './index.js' }, { 'index.js': `${greeting('^0.1.0')}export const other = { ...greetingFeature, id: 'other' };\n` });
    configure('vigie-two');
    await expect(createServerKernel({ installDir, env })).rejects.toThrow('plugin vigie-two exports several features (greetingFeature, other): export the one to load as default');
  });

  it('reports a module that fails to load, and a feature that fails the boot checks, naming the package', async () => {
    installPackage('vigie-broken', {}, { 'index.js': 'throw new Error("no database driver");\n' });
    configure('vigie-broken');
    await expect(createServerKernel({ installDir, env })).rejects.toThrow(/^plugin vigie-broken: loading .*index\.js failed: no database driver$/);

    installPackage('vigie-future', {}, { 'index.js': greeting('^9.0.0') });
    configure('vigie-future');
    const failure = createServerKernel({ installDir, env });
    await expect(failure).rejects.toThrow('feature greeting needs kernel ^9.0.0, this kernel is 0.1.0');
    await expect(failure).rejects.toThrow(`feature greeting comes from plugin vigie-future (${join(installDir, 'node_modules', 'vigie-future')})`);
  });

  it('refuses a value that is not a package name', async () => {
    configure('../../etc/passwd');
    await expect(createServerKernel({ installDir, env })).rejects.toThrow('[server] plugins: "../../etc/passwd" is not an npm package name');
  });
});
