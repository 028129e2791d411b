// Deliveries across a kill -9 of a real server process: a pending retry is sent after the restart, and a ticket
// whose answer was lost with the process is not created twice at a target that honours the Idempotency-Key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSourceServer } from '@vigie/kernel-testing';
import { check, eventually, startTarget, webhook, type Delivery, type ListedAlarm, type Target } from './harness.js';

const fixture = fileURLToPath(new URL('./fixtures/webhook-server.ts', import.meta.url));
const authorization = `Basic ${Buffer.from('root:root-password').toString('base64')}`;

interface Server {
  url: string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

async function startServer(installDir: string, env: Record<string, string> = {}): Promise<Server> {
  const { child, url, exited } = await startSourceServer(fixture, [installDir], env);
  return { url, exited, kill: (signal) => child.kill(signal) };
}

async function call(server: Server, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}`).toBe(200);
  return res.json();
}

const deliveries = async (server: Server) => ((await call(server, 'GET', '/api/v2/webhook-deliveries')) as { data: Delivery[] }).data;
const alarms = async (server: Server) =>
  ((await call(server, 'GET', '/alerts/get-alarms?with_steps=true')) as { data: { alarms: ListedAlarm[] }[] }).data[0]!.alarms;

let installDir: string;
let target: Target;
let running: Server | undefined;

beforeEach(async () => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-webhooks-restart-'));
  target = await startTarget();
});

afterEach(async () => {
  if (running) {
    running.kill('SIGKILL');
    await running.exited;
    running = undefined;
  }
  await target.close();
  rmSync(installDir, { recursive: true, force: true });
});

async function crash(server: Server): Promise<void> {
  server.kill('SIGKILL');
  await server.exited;
  running = undefined;
}

describe('webhook deliveries across a kill -9', () => {
  it('sends a retry that was pending when the process died, with the same Idempotency-Key', async () => {
    target.answer({ status: 500 }, { status: 200 });
    const first = (running = await startServer(installDir));
    await call(first, 'POST', '/api/v2/webhook', webhook({ _id: 'hook', retry: { count: 3, delay: 2, unit: 's' }, request: { url: `${target.url}/notify` } }));
    await call(first, 'POST', '/api/v2/event', [check()]);
    const [pending] = await eventually(() => deliveries(first), (d) => d[0]?.attempts.length === 1);
    expect(pending).toMatchObject({ status: 'pending', attempts: [{ status: 500 }] });
    await crash(first);
    expect(target.received).toHaveLength(1);

    const second = (running = await startServer(installDir));
    const [delivered] = await eventually(() => deliveries(second), (d) => d[0]?.status === 'succeeded');
    expect(delivered).toMatchObject({ _id: pending!._id, attempts: [{ status: 500 }, { status: 200 }] });
    expect(target.received.map((r) => r.headers['idempotency-key'])).toEqual([pending!._id, pending!._id]);
  });

  it('declares exactly one ticket when the process dies between the target creating it and Vigie storing it', async () => {
    const tickets = new Map<string, string>();
    target.answer((request) => {
      const key = String(request.headers['idempotency-key']);
      let ticket = tickets.get(key);
      if (ticket === undefined) {
        // A target honouring the key creates the ticket once per key...
        ticket = `INC-${tickets.size + 1}`;
        tickets.set(key, ticket);
        // ...and this first time Vigie dies before it can read the answer and store the ticket.
        running?.kill('SIGKILL');
        return { body: { number: ticket }, delayMs: 200 };
      }
      return { body: { number: ticket } };
    });
    const first = (running = await startServer(installDir));
    await call(first, 'POST', '/api/v2/webhook', webhook({ _id: 'ticket', request: { url: `${target.url}/tickets` }, declare_ticket: { ticket_id: 'number' } }));
    await call(first, 'POST', '/api/v2/event', [check()]);
    await first.exited;
    running = undefined;
    expect(target.received).toHaveLength(1);

    const second = (running = await startServer(installDir));
    const [delivery] = await eventually(() => deliveries(second), (d) => d[0]?.status === 'succeeded', 'the delivery to succeed');
    expect(delivery).toMatchObject({ ticket: 'INC-1' });
    expect(tickets.size).toBe(1);
    expect(new Set(target.received.map((r) => r.headers['idempotency-key']))).toEqual(new Set([delivery!._id]));
    const [alarm] = await alarms(second);
    expect(alarm!.v.ticket).toMatchObject({ _t: 'declareticket', val: 'INC-1' });
    expect(alarm!.v.steps.filter((step: { _t: string }) => step._t === 'declareticket')).toHaveLength(1);
  });

  it('records and sends the delivery of a trigger the process died before handling (the alarm was stored)', async () => {
    const first = (running = await startServer(installDir, { CRASH_AFTER_ALARM_STORED: '1' }));
    await call(first, 'POST', '/api/v2/webhook', webhook({ _id: 'hook', request: { url: `${target.url}/notify` } }));
    await fetch(`${first.url}/api/v2/event`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify([check()]) }).catch(
      () => undefined,
    );
    await first.exited;
    running = undefined;
    expect(target.received).toHaveLength(0);

    const second = (running = await startServer(installDir));
    const [delivered, ...others] = await eventually(() => deliveries(second), (d) => d[0]?.status === 'succeeded');
    expect(others).toEqual([]);
    expect(delivered).toMatchObject({ trigger: 'create', attempts: [{ status: 200 }] });
    expect(target.received).toHaveLength(1);
    const [alarm] = await alarms(second);
    expect(delivered!.alarm).toBe(alarm!._id);
  });
});
