import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { pbehaviorsFeature } from '@vigie/pbehaviors';
import type { TestKernel } from '@vigie/testkit';
export { eventually } from '@vigie/testkit';
import { webhooksFeature } from '../src/index.js';
import { check } from '@vigie/events/testing';

/** The webhooks feature and what it depends on. */
export const webhookFeatures = [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature, webhooksFeature];

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status?: number;
  body?: unknown;
  /** Answer this long after the request (to provoke a timeout). */
  delayMs?: number;
}

/** A real HTTP target on loopback: records what it receives and answers what the test decides. */
export interface Target {
  url: string;
  received: ReceivedRequest[];
  /** How to answer the next requests (200 `{}` by default); each call's answers are used in order, the last one repeats. */
  answer(...answers: (Answer | ((request: ReceivedRequest) => Answer))[]): void;
  close(): Promise<void>;
}

export async function startTarget(): Promise<Target> {
  const received: ReceivedRequest[] = [];
  let answers: (Answer | ((request: ReceivedRequest) => Answer))[] = [{}];
  let used = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const next = answers[Math.min(used, answers.length - 1)] ?? {};
      used += 1;
      const answer = typeof next === 'function' ? next(request) : next;
      const send = () => {
        if (res.destroyed) return;
        const body = answer.body === undefined ? '{}' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (...next) => {
      answers = next;
      used = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A webhook body with sensible defaults. */
export function webhook(overrides: Record<string, unknown> & { request: Record<string, unknown> }): Record<string, unknown> {
  return {
    hook: { triggers: ['create'] },
    retry: { count: 2, delay: 1, unit: 's' },
    ...overrides,
    request: { method: 'POST', ...overrides.request },
  };
}

export { check };

export interface Delivery {
  _id: string;
  webhook: string;
  alarm: string;
  trigger: string;
  status: string;
  request: { method: string; url: string; headers: Record<string, string>; payload?: string };
  attempts: { t: number; status?: number; error?: string }[];
  ticket?: string;
  reason?: string;
}

export async function listDeliveries(t: Pick<TestKernel, 'get'>, query = ''): Promise<Delivery[]> {
  const res = await t.get(`/api/v2/webhook-deliveries${query}`);
  expect(res.status).toBe(200);
  return (res.body as { data: Delivery[] }).data;
}

export async function createWebhook(t: Pick<TestKernel, 'post'>, body: Record<string, unknown>): Promise<string> {
  const res = await t.post('/api/v2/webhook', body);
  expect(res.status, res.text).toBe(200);
  return (res.body as { _id: string })._id;
}

export async function sendEvents(t: Pick<TestKernel, 'post'>, ...events: Record<string, unknown>[]): Promise<void> {
  const res = await t.post('/api/v2/event', events);
  expect(res.status, res.text).toBe(200);
  expect((res.body as { failed_events: unknown[] }).failed_events).toEqual([]);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the JSON answer freely
export type ListedAlarm = { _id: string; d: string; v: Record<string, any> };

/** The open alarms of `/alerts/get-alarms`, steps included. */
export async function openAlarms(t: Pick<TestKernel, 'get'>): Promise<ListedAlarm[]> {
  const res = await t.get('/alerts/get-alarms?with_steps=true');
  expect(res.status).toBe(200);
  return (res.body as { data: { alarms: ListedAlarm[] }[] }).data[0]!.alarms;
}
