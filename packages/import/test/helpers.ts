import { expect } from 'vitest';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import type { ConfigOverrides, Clock, StoreFactory } from '@vigie/kernel';
import { importStatusChangedEvent, importFeature, type ImportStatus } from '../src/index.js';

export interface ImportTestKernel extends TestKernel {
  /** Submits `{json: document}` with PUT; returns the import id. */
  submit(document: unknown): Promise<string>;
  /** Submits a body as it is, with its content type; returns the import id. */
  submitRaw(body: string, contentType: string): Promise<string>;
  /** Waits for the import to finish (announced by `import.status-changed`) and returns its status record. */
  finished(id: string): Promise<Record<string, unknown>>;
  /** Submits and waits. */
  run(document: unknown): Promise<Record<string, unknown>>;
  /** Every entity, by id, as the read route shows them. */
  entities(): Promise<Record<string, unknown>[]>;
  /** Statuses announced so far, by import id, in order. */
  announced: Map<string, ImportStatus[]>;
}

export async function startImportTest(options: { config?: ConfigOverrides; clock?: Clock; installDir?: string; store?: StoreFactory } = {}): Promise<ImportTestKernel> {
  const t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, importFeature], ...options });
  const announced = new Map<string, ImportStatus[]>();
  const waiters = new Map<string, () => void>();
  t.kernel.eventBus.on(importStatusChangedEvent, ({ importId, status }) => {
    announced.set(importId, [...(announced.get(importId) ?? []), status]);
    if (status === 'done' || status === 'failed') waiters.get(importId)?.();
  });
  const submitRaw = async (body: string, contentType: string): Promise<string> => {
    const res = await t.request('PUT', '/api/contextgraph/import', { body, headers: { 'content-type': contentType } });
    expect(res.status, res.text).toBe(200);
    return (res.body as { data: { import_id: string }[] }).data[0]?.import_id as string;
  };
  const submit = (document: unknown) => submitRaw(JSON.stringify({ json: document }), 'application/json');
  const finished = async (id: string): Promise<Record<string, unknown>> => {
    const seen = announced.get(id) ?? [];
    if (!seen.includes('done') && !seen.includes('failed')) await new Promise<void>((resolve) => waiters.set(id, resolve));
    const res = await t.get(`/api/contextgraph/import/status/${id}`);
    return res.body as Record<string, unknown>;
  };
  const entities = async (): Promise<Record<string, unknown>[]> => {
    const res = await t.get('/api/v2/entities?limit=1000');
    expect(res.status, res.text).toBe(200);
    return (res.body as { data: Record<string, unknown>[] }).data;
  };
  return { ...t, announced, submit, submitRaw, finished, run: async (document) => finished(await submit(document)), entities };
}

