import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onLines, spawnSource } from '@vigie/kernel-testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SqliteStore } from '@vigie/store-sqlite';
import { createServerKernel, runCli, type CliIo } from '../src/index.js';

let installDir: string;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-server-'));
});
afterEach(() => {
  rmSync(installDir, { recursive: true, force: true });
});

function captureIo(env: Record<string, string> = {}, stdin = ''): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (text: string) => void (io.stdout += text),
    err: (text: string) => void (io.stderr += text),
    readStdin: async () => stdin,
    env: { VIGIE_ADMIN_PASSWORD: 'admin password', ...env },
  };
  return io;
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the vigie command line', () => {
  it.each([['--help'], ['serve', '--help'], ['user', 'add', '--help'], ['user', 'passwd', '--help'], ['user', 'list', '--help'], ['user', 'disable', '--help'], ['user', 'enable', '--help'], ['apikey', 'create', '--help'], ['saml2', 'import', '--help']])(
    'prints help for %s',
    async (...argv) => {
      const io = captureIo();
      expect(await runCli(argv, io)).toBe(0);
      expect(io.stdout).toMatch(/^Usage: vigie/);
      expect(io.stdout).toContain('--install-dir');
    },
  );

  it('refuses unknown commands, unknown options and missing arguments with usage and exit code 2', async () => {
    for (const argv of [['frobnicate'], ['serve', '--bogus'], ['user', 'add'], ['serve', '--port', 'high']]) {
      const io = captureIo();
      expect(await runCli(argv, io)).toBe(2);
      expect(io.stderr).toMatch(/vigie/);
    }
  });

  it('adds a user and creates an API key that the server then accepts', async () => {
    const add = captureIo({}, 'ada password\n');
    expect(await runCli(['user', 'add', 'ada', '--role', 'operator', '--password-stdin', '--install-dir', installDir], add)).toBe(0);
    expect(add.stdout).toBe('created user ada (role operator)\n');
    const key = captureIo();
    expect(await runCli(['apikey', 'create', 'ada', '--label', 'ci', '--install-dir', installDir], key)).toBe(0);
    const apiKey = key.stdout.trim();
    expect(apiKey).toMatch(/^vk_/);
    const list = captureIo();
    await runCli(['user', 'list', '--install-dir', installDir], list);
    expect(list.stdout).toBe('ada\toperator\tenabled\nroot\tadmin\tenabled\n');
    const duplicate = captureIo({}, 'other password\n');
    expect(await runCli(['user', 'add', 'ada', '--password-stdin', '--install-dir', installDir], duplicate)).toBe(1);
    expect(duplicate.stderr).toBe('vigie: user ada already exists\n');

    const kernel = await createServerKernel({ installDir, env: {}, port: 0 });
    const { url } = await kernel.start();
    try {
      const byPassword = await fetch(`${url}/api/v2/account/me`, { headers: { authorization: basic('ada', 'ada password') } });
      expect(await byPassword.json()).toMatchObject({ id: 'ada', name: 'ada', role: 'operator', roles: ['operator'], via: 'basic' });
      const byKey = await fetch(`${url}/api/v2/account/me`, { headers: { 'x-canopsis-authkey': apiKey } });
      expect(byKey.status).toBe(200);
    } finally {
      await kernel.stop();
    }
  });

  it('listens on 127.0.0.1:8082 with the embedded store unless configured otherwise', async () => {
    const defaults = await createServerKernel({ installDir, env: {} });
    expect([defaults.serverConfig.host, defaults.serverConfig.port]).toEqual(['127.0.0.1', 8082]);
    mkdirSync(join(installDir, 'etc'));
    writeFileSync(join(installDir, 'etc', 'webserver.conf'), '[server]\nhost = 0.0.0.0\nport = 9090\n');
    const configured = await createServerKernel({ installDir, env: { VIGIE_SERVER__PORT: '9191' } });
    expect([configured.serverConfig.host, configured.serverConfig.port]).toEqual(['0.0.0.0', 9191]);
    const flags = await createServerKernel({ installDir, env: {}, host: '127.0.0.2', port: 1234 });
    expect([flags.serverConfig.host, flags.serverConfig.port]).toEqual(['127.0.0.2', 1234]);
  });

  it('refuses a configuration naming unknown features or stores', async () => {
    mkdirSync(join(installDir, 'etc'));
    writeFileSync(join(installDir, 'etc', 'webserver.conf'), '[server]\nfeatures = auth,teleport\n');
    await expect(createServerKernel({ installDir, env: {} })).rejects.toThrow('[server] features names features this server does not have: teleport');
    writeFileSync(join(installDir, 'etc', 'webserver.conf'), '[store]\nadapter = floppy\n');
    await expect(createServerKernel({ installDir, env: {} })).rejects.toThrow('[store] adapter floppy is unknown');
  });
});

describe('vigie saml2 import', () => {
  function setupDir(serviceUrl: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-saml2-setup-'));
    const settings = {
      strict: true,
      sp: {
        entityId: `${serviceUrl}/auth/saml2/metadata/`,
        assertionConsumerService: { url: `${serviceUrl}/auth/saml2/acs/`, binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST' },
        singleLogoutService: { url: `${serviceUrl}/auth/saml2/sls/`, binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' },
        NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      },
      idp: {
        entityId: 'https://idp.example.org/metadata',
        singleSignOnService: { url: 'https://idp.example.org/sso', binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' },
        x509cert: 'MIIBkTCB+wIJAKHBfpegPjMCMA0GCSqGSIb3DQEBCwUAMBExDzANBgNVBAMMBnRlc3RjYTAeFw0yNDAxMDEwMDAwMDBa',
      },
    };
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings));
    writeFileSync(join(dir, 'advanced_settings.json'), JSON.stringify({ security: { wantAssertionsSigned: true } }));
    writeFileSync(join(dir, 'user_mapping.json'), JSON.stringify({ userid: null, firstname: null, lastname: null, mail: null }));
    writeFileSync(join(dir, 'conf_path'), '/tmp\n');
    writeFileSync(join(dir, 'secret_key'), 'x\n');
    return dir;
  }

  it('copies a setup directory into the installation, again and again, and the server then serves SAML2', async () => {
    const first = setupDir('https://vigie.example.org');
    const second = setupDir('https://supervision.example.org');
    try {
      for (const dir of [first, second]) {
        const io = captureIo();
        expect(await runCli(['saml2', 'import', dir, '--install-dir', installDir], io)).toBe(0);
        expect(io.stdout).toContain(`imported the SAML2 setup into ${join(installDir, 'etc', 'saml2')}`);
      }
      const refused = captureIo();
      expect(await runCli(['saml2', 'import', join(installDir, 'missing'), '--install-dir', installDir], refused)).toBe(1);
      expect(refused.stderr).toContain('no settings.json');
      writeFileSync(join(installDir, 'etc', 'webserver.conf'), '[webservices]\nsaml2 = 1\n');
      const kernel = await createServerKernel({ installDir, env: { VIGIE_ADMIN_PASSWORD: 'admin password' }, port: 0 });
      const { url } = await kernel.start();
      try {
        const metadata = await fetch(`${url}/auth/saml2/metadata/`);
        expect(metadata.status).toBe(200);
        expect(await metadata.text()).toContain('entityID="https://supervision.example.org/auth/saml2/metadata/"');
      } finally {
        await kernel.stop();
      }
    } finally {
      rmSync(first, { recursive: true, force: true });
      rmSync(second, { recursive: true, force: true });
    }
  });
});

describe('the composed server', () => {
  it('serves an OpenAPI 3.1 document, valid, covering every route of every default feature', async () => {
    const kernel = await createServerKernel({ installDir, env: { VIGIE_ADMIN_PASSWORD: 'admin password' }, port: 0 });
    const { url } = await kernel.start();
    try {
      const res = await fetch(`${url}/api/v2/openapi.json`, { headers: { authorization: basic('root', 'admin password') } });
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
      const result = await new Validator().validate(doc as never);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      const operations = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)));
      for (const { route } of kernel.routes()) {
        for (const path of typeof route.path === 'string' ? [route.path] : route.path) {
          const templated = path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/+$/, '$1');
          expect(operations, `${route.method} ${path}`).toContain(`${route.method} ${templated}`);
        }
      }
      expect(operations.size).toBeGreaterThan(50);
    } finally {
      await kernel.stop();
    }
  });

  it('records the event intake in the audit log by the minute, counting its requests and queue documents, copying none', async () => {
    const kernel = await createServerKernel({ installDir, env: { VIGIE_ADMIN_PASSWORD: 'admin password' }, port: 0 });
    const { url } = await kernel.start();
    const headers = { authorization: basic('root', 'admin password'), 'content-type': 'application/json' };
    const check = (i: number) => ({ event_type: 'check', source_type: 'resource', connector: 'audit-test', connector_name: 'audit-test', component: 'host', resource: `r${i}`, state: 0, output: 'ok' });
    try {
      // 1,500 events fill two queue documents (1,000 events each at most); one event fills one. Then 20 requests of
      // one event each, as a connector sends them.
      const batches = [Array.from({ length: 1500 }, (_, i) => check(i)), ...Array.from({ length: 21 }, (_, i) => [check(i)])];
      for (const events of batches) {
        const res = await fetch(`${url}/api/v2/event`, { method: 'POST', headers, body: JSON.stringify(events) });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { sent_events: unknown[] }).sent_events).toHaveLength(events.length);
      }
      type Tally = { path: string; outcome: string; changes: unknown[]; changesOmitted: number; requests: number; pending: number; failed: number };
      const audit = (await (await fetch(`${url}/api/v2/audit?limit=100`, { headers })).json()) as { data: Tally[] };
      const minutes = audit.data.filter((record) => record.path === '/api/v2/event');
      // One record for the minute (two if the requests straddled the turn of a minute), whatever the number of requests.
      expect(minutes.length).toBeGreaterThanOrEqual(1);
      expect(minutes.length).toBeLessThanOrEqual(2);
      for (const minute of minutes) expect(minute).toMatchObject({ outcome: 'done', changes: [], pending: 0, failed: 0 });
      expect(minutes.reduce((sum, minute) => sum + minute.requests, 0)).toBe(22);
      expect(minutes.reduce((sum, minute) => sum + minute.changesOmitted, 0)).toBe(2 + 21);
    } finally {
      await kernel.stop();
    }
  });
});

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting, finishes the in-flight request and the running job, closes the store, exits 0', async () => {
    const child = spawnSource(fileURLToPath(new URL('./fixtures/slow-server.ts', import.meta.url)), [installDir], { VIGIE_ADMIN_PASSWORD: 'admin password' });
    const seen = new Set<string>();
    let url = '';
    const waiters: [string, () => void][] = [];
    onLines(child.stdout, (line) => {
      const m = /^LISTENING (.+)$/.exec(line);
      if (m) url = m[1] as string;
      seen.add(m ? 'LISTENING' : line);
      for (const [what, resolve] of waiters) if (seen.has(what)) resolve();
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const lineSeen = (what: string) => new Promise<void>((resolve) => (seen.has(what) ? resolve() : waiters.push([what, resolve])));
    await Promise.race([lineSeen('LISTENING'), exited.then(() => Promise.reject(new Error(`server exited early: ${stderr}`)))]);

    const auth = { authorization: basic('root', 'admin password') };
    expect((await fetch(`${url}/slow/job`, { method: 'POST', headers: auth })).status).toBe(200);
    await lineSeen('JOB STARTED');
    const inFlight = fetch(`${url}/slow/request?ms=800`, { headers: auth });
    await lineSeen('REQUEST STARTED');
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 150));
    await expect(fetch(`${url}/api/v2/account/me`, { headers: { ...auth, connection: 'close' } })).rejects.toThrow();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    expect(await exited).toBe(0);

    const store = new SqliteStore(join(installDir, 'var', 'lib', 'vigie.sqlite'));
    expect(await store.collection('slow').findOne({ _id: 'job-done' })).toEqual({ _id: 'job-done' });
    await store.close();
  });
});
