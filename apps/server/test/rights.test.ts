import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '@vigie/kernel';
import { testPasswordHashCost } from '@vigie/testkit';
import { createServerKernel } from '../src/index.js';

/**
 * Each built-in role against every route of the composed server, as its OpenAPI document lists them (routes added
 * later are covered without editing this file): a viewer is refused every change but of its own account, an
 * operator every change but to alarms and pbehaviors, an administrator nothing.
 */

interface Operation {
  method: string;
  path: string;
  right: string | undefined;
  isPublic: boolean;
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const admin = basic('root', 'admin password');
/** Rights only administrators hold, whatever the action. */
const administrationRights = new Set(['users:admin', 'roles:admin', 'audit:read']);

/** A read: a GET, or a route that changes nothing under a read right (a rule's impact preview is a POST of the rule). */
const isRead = (op: { method: string; right?: string }): boolean => op.method === 'GET' || (op.right ?? '').endsWith(':read');

let installDir: string;
let kernel: Kernel;
let url: string;
let operations: Operation[];

async function call(op: Operation, authorization: string): Promise<number> {
  const path = op.path.replace(/\{[^}]+\}/g, 'no-such-id');
  const body = ['POST', 'PUT', 'PATCH'].includes(op.method) ? '{}' : undefined;
  const res = await fetch(`${url}${path}`, { method: op.method, headers: { authorization, 'content-type': 'application/json' }, body });
  // A stream (server-sent events) never ends: its status is its answer.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) await res.body?.cancel();
  else await res.arrayBuffer();
  return res.status;
}

async function createUser(name: string, role: string): Promise<string> {
  const res = await fetch(`${url}/api/v2/users`, {
    method: 'POST',
    headers: { authorization: admin, 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `${name} password`, roles: [role] }),
  });
  expect(res.status).toBe(200);
  return basic(name, `${name} password`);
}

beforeAll(async () => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-rights-'));
  mkdirSync(join(installDir, 'etc'));
  writeFileSync(join(installDir, 'etc', 'webserver.conf'), '[log]\nlevel = silent\n');
  kernel = await createServerKernel({ installDir, env: { VIGIE_ADMIN_PASSWORD: 'admin password', ...testPasswordHashCost }, port: 0 });
  url = (await kernel.start()).url;
  const doc = (await (await fetch(`${url}/api/v2/openapi.json`, { headers: { authorization: admin } })).json()) as {
    paths: Record<string, Record<string, { 'x-vigie-right'?: string; security?: unknown[] }>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      right: op['x-vigie-right'],
      isPublic: Array.isArray(op.security) && op.security.length === 0,
    })),
  );
});

afterAll(async () => {
  await kernel?.stop();
  rmSync(installDir, { recursive: true, force: true });
});

describe('rights of the built-in roles over every route', () => {
  it('names a right for every route that is not public', () => {
    expect(operations.length).toBeGreaterThan(60);
    expect(operations.filter((op) => !op.isPublic && op.right === undefined)).toEqual([]);
  });

  it('refuses a viewer every change but of its own account, and the administration reads', async () => {
    const viewer = await createUser('vera', 'viewer');
    const refused: string[] = [];
    const wrong: string[] = [];
    for (const op of operations.filter((o) => !o.isPublic)) {
      const status = await call(op, viewer);
      const expectRefusal = isRead(op) ? administrationRights.has(op.right as string) : op.right !== 'account:own';
      if (expectRefusal !== (status === 403)) wrong.push(`${op.method} ${op.path} (${op.right}): ${status}`);
      if (status === 403) refused.push(`${op.method} ${op.path}`);
    }
    expect(wrong).toEqual([]);
    // Every kind of rule change is among the refusals (the table cannot pass by refusing nothing).
    expect(refused).toEqual(expect.arrayContaining(['POST /api/v2/idle-rule', 'DELETE /api/v2/webhook/{id}', 'POST /api/v2/event', 'POST /api/v2/pbehavior']));
  }, 120_000);

  it('refuses an operator rule changes, but lets it act on alarms and pbehaviors', async () => {
    const operator = await createUser('otto', 'operator');
    const wrong: string[] = [];
    let allowedWrites = 0;
    for (const op of operations.filter((o) => !o.isPublic)) {
      const status = await call(op, operator);
      const resource = (op.right as string).split(':')[0] as string;
      const expectRefusal =
        isRead(op) ? administrationRights.has(op.right as string) : !(['alarms', 'pbehaviors'].includes(resource) || op.right === 'account:own');
      if (expectRefusal !== (status === 403)) wrong.push(`${op.method} ${op.path} (${op.right}): ${status}`);
      if (!isRead(op) && resource === 'pbehaviors' && status !== 403) allowedWrites += 1;
    }
    expect(wrong).toEqual([]);
    expect(allowedWrites).toBeGreaterThan(0);
  }, 120_000);

  it('refuses the administrator nothing', async () => {
    const refused: string[] = [];
    for (const op of operations.filter((o) => !o.isPublic)) {
      if ((await call(op, admin)) === 403) refused.push(`${op.method} ${op.path}`);
    }
    expect(refused).toEqual([]);
  }, 120_000);
});
