// The audit log across a kill -9: each record is durable before its change is made, so whatever changes survive
// the crash have their record.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEnginesServer } from '@vigie/testkit';

const fixture = fileURLToPath(new URL('./fixtures/audit-server.ts', import.meta.url));

let installDir: string;
beforeEach(() => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-audit-restart-'));
});
afterEach(() => rmSync(installDir, { recursive: true, force: true }));

describe('the audit log across a kill -9', () => {
  it('never keeps a change without its record', async () => {
    const first = await startEnginesServer(installDir, fixture);
    // Changes in flight when the process dies: some are made, some not, some answered.
    const sent = Array.from({ length: 60 }, (_, i) => first.request('POST', '/api/v2/roles', { name: `role-${i}`, rights: [] }).catch(() => null));
    await Promise.race([Promise.all(sent), new Promise((resolve) => setTimeout(resolve, 150))]);
    first.kill('SIGKILL');
    await first.exited;
    await Promise.all(sent);

    const second = await startEnginesServer(installDir, fixture);
    try {
      const roles = ((await second.request('GET', '/api/v2/roles')).body as { name: string; builtIn: boolean }[]).filter((r) => !r.builtIn).map((r) => r.name);
      const records = (await second.request('GET', '/api/v2/audit?route=/api/v2/roles&method=POST&limit=1000')).body as { data: { body: { name: string } }[] };
      const recorded = new Set(records.data.map((r) => r.body.name));
      expect(roles.filter((name) => !recorded.has(name))).toEqual([]);
      expect(recorded.size).toBeGreaterThanOrEqual(roles.length);
    } finally {
      second.kill('SIGTERM');
      await second.exited;
    }
  });
});
