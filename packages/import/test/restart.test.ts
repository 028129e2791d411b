// Restarts of a real server process: imports left pending survive, and an import cut off while ongoing is run
// again from its file.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onLines, spawnSource } from '@vigie/kernel-testing';

const fixture = fileURLToPath(new URL('./fixtures/import-server.ts', import.meta.url));
const authorization = `Basic ${Buffer.from('root:root-password').toString('base64')}`;

interface Server {
  url: string;
  /** Resolves when the server printed this line (or already had). */
  printed(line: string): Promise<void>;
  /** Every STATUS line so far, in order. */
  statuses: string[];
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

async function startServer(installDir: string, env: Record<string, string> = {}): Promise<Server> {
  const child = spawnSource(fixture, [installDir], env);
  const seen: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  onLines(child.stdout, (line) => {
    seen.push(line);
    for (const waiter of waiters.filter((w) => w.line === line)) waiter.resolve();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const printed = (line: string) =>
    seen.includes(line)
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => waiters.push({ line, resolve })),
          exited.then(() => Promise.reject(new Error(`the server exited before printing "${line}": ${stderr}`))),
        ]);
  const listening = await Promise.race([
    new Promise<string>((resolve) => onLines(child.stdout, (line) => line.startsWith('LISTENING ') && resolve(line.slice('LISTENING '.length)))),
    exited.then(() => Promise.reject(new Error(`the server exited before listening: ${stderr}`))),
  ]);
  return {
    url: listening,
    printed,
    get statuses() {
      return seen.filter((line) => line.startsWith('STATUS '));
    },
    exited,
    kill: (signal) => child.kill(signal),
  };
}

async function submit(server: Server, document: unknown): Promise<string> {
  const res = await fetch(`${server.url}/api/contextgraph/import`, {
    method: 'PUT',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ json: document }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { import_id: string }[] }).data[0]?.import_id as string;
}

const get = async (server: Server, path: string) => (await fetch(`${server.url}${path}`, { headers: { authorization } })).json() as Promise<Record<string, unknown>>;

let installDir: string;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-import-restart-'));
});
afterEach(() => rmSync(installDir, { recursive: true, force: true }));

describe('imports across a restart of the server process', () => {
  it('after a SIGKILL, runs the import that was ongoing again from its file, then the pending one, in order', async () => {
    const first = await startServer(installDir, { HOLD_FIRST_ONGOING: '1' });
    const a = await submit(first, {
      cis: [
        { _id: 'db/host', type: 'resource', action: 'create' },
        { _id: 'host', type: 'component', action: 'create' },
      ],
      links: [{ from: 'db/host', to: 'host', action: 'create' }],
    });
    await first.printed(`STATUS ${a} ongoing`);
    const b = await submit(first, { cis: [{ _id: 'host', action: 'update', name: 'the host' }] });
    expect(await get(first, `/api/contextgraph/import/status/${a}`)).toMatchObject({ status: 'ongoing' });
    expect(await get(first, `/api/contextgraph/import/status/${b}`)).toMatchObject({ status: 'pending' });
    first.kill('SIGKILL');
    await first.exited;

    const second = await startServer(installDir);
    try {
      await second.printed(`STATUS ${b} done`);
      expect(second.statuses).toEqual([`STATUS ${a} ongoing`, `STATUS ${a} done`, `STATUS ${b} ongoing`, `STATUS ${b} done`]);
      expect(await get(second, `/api/contextgraph/import/status/${a}`)).toMatchObject({ status: 'done', stats: { deleted: 0, updated: 2 } });
      expect(await get(second, `/api/contextgraph/import/status/${b}`)).toMatchObject({ status: 'done', stats: { deleted: 0, updated: 1 } });
      expect(await get(second, '/api/v2/entities/host')).toMatchObject({ name: 'the host', depends: ['db/host'] });
      expect(await get(second, '/api/v2/entities/db/host')).toMatchObject({ impact: ['host'] });
      expect(readdirSync(join(installDir, 'var', 'lib', 'imports'))).toEqual([]);
    } finally {
      second.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });

  it("after a SIGKILL between an import's durable changes and its done record, records it done without applying it again", async () => {
    const first = await startServer(installDir);
    const a = await submit(first, { cis: [{ _id: 'old', type: 'resource', action: 'create' }] });
    await first.printed(`STATUS ${a} done`);
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await startServer(installDir, { KILL_AFTER_COMMIT: '1' });
    // Applied again, its delete would fail: the entity is gone.
    const b = await submit(second, { cis: [{ _id: 'old', action: 'delete' }, { _id: 'new', type: 'resource', action: 'create' }] });
    await second.exited;

    const third = await startServer(installDir);
    try {
      await third.printed(`STATUS ${b} done`);
      expect(await get(third, `/api/contextgraph/import/status/${b}`)).toMatchObject({ status: 'done', stats: { deleted: 1, updated: 1 } });
      expect(await get(third, '/api/v2/entities?limit=10')).toMatchObject({ total: 1, data: [{ _id: 'new' }] });
      expect(readdirSync(join(installDir, 'var', 'lib', 'imports'))).toEqual([]);
    } finally {
      third.kill('SIGTERM');
      expect(await third.exited).toBe(0);
    }
  });

  it('after a SIGKILL in the middle of a large import, ends it done with the whole graph', async () => {
    const size = 20_000;
    const first = await startServer(installDir);
    const big = await submit(first, {
      cis: Array.from({ length: size }, (_, i) => ({ _id: `check-${i}/host-${i % 100}`, type: 'resource', action: 'create' })).concat(
        Array.from({ length: 100 }, (_, i) => ({ _id: `host-${i}`, type: 'component', action: 'create' })),
      ),
      links: Array.from({ length: size }, (_, i) => ({ from: `check-${i}/host-${i % 100}`, to: `host-${i % 100}`, action: 'create' })),
    });
    const pending = await submit(first, { cis: [{ _id: 'host-0', action: 'update', name: 'zero' }] });
    await first.printed(`STATUS ${big} ongoing`);
    first.kill('SIGKILL');
    await first.exited;

    const second = await startServer(installDir);
    try {
      await second.printed(`STATUS ${pending} done`);
      expect(await get(second, `/api/contextgraph/import/status/${big}`)).toMatchObject({ status: 'done', stats: { deleted: 0, updated: size + 100 } });
      expect(await get(second, '/api/v2/entities?limit=1')).toMatchObject({ total: size + 100 });
      const host = await get(second, '/api/v2/entities/host-0');
      expect(host).toMatchObject({ name: 'zero' });
      expect(host.depends).toHaveLength(size / 100);
    } finally {
      second.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });
});
