import { afterEach, describe, expect, it } from 'vitest';
import { collectionRef, kernelRefs, defineFeature } from '@vigie/kernel';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { metricsFeature } from '../src/index.js';

const samplesCollection = collectionRef('samples');

/** A feature with a parameterised route that reads the store, and a job that fails on demand. */
const sampleFeature = defineFeature({
  id: 'sample',
  kernel: '^0.1.0',
  register(f) {
    f.collection(samplesCollection);
    f.route({
      method: 'GET',
      path: '/api/v2/samples/:id',
      right: 'samples:read',
      handler: async (ctx) => (await ctx.state.scope.resolve(kernelRefs.store).collection(samplesCollection).findOne({ _id: ctx.params.id })) ?? {},
    });
    f.job<{ fail: boolean }>({
      name: 'sample.work',
      handler: async (run) => {
        if (run.data.fail) throw new Error('failed on purpose');
      },
    });
  },
});

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** The value of one sample line of the exposition, e.g. `vigie_http_requests_total{method="GET",...}`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  it('counts requests by route template and status, times them, the store and jobs', async () => {
    t = await startFeatureTest({ features: [metricsFeature, sampleFeature] });
    await t.get('/api/v2/samples/a');
    await t.get('/api/v2/samples/b');
    await t.get('/api/v2/no/such/route');
    await t.kernel.scheduler.now('sample.work', { fail: false });
    await t.kernel.scheduler.now('sample.work', { fail: true });
    let text = '';
    await expect
      .poll(async () => {
        text = (await t?.get('/metrics'))?.text ?? '';
        return sample(text, 'vigie_job_runs_total', { job: 'sample.work', outcome: 'failed' });
      }, { timeout: 30_000 })
      .toBe(1);
    expect(sample(text, 'vigie_job_runs_total', { job: 'sample.work', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'vigie_http_requests_total', { method: 'GET', route: '/api/v2/samples/:id', status: '200' })).toBe(2);
    expect(sample(text, 'vigie_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'vigie_http_request_duration_seconds_count', { method: 'GET', route: '/api/v2/samples/:id' })).toBe(2);
    expect(sample(text, 'vigie_store_operation_duration_seconds_count', { collection: 'samples', operation: 'findOne', outcome: 'ok' })).toBe(2);
    expect(sample(text, 'vigie_job_duration_seconds_count', { job: 'sample.work' })).toBe(2);
    expect(text).toContain('vigie_process_resident_memory_bytes');
    expect(text).not.toContain('/api/v2/no/such/route');
  });

  it('reports event-pipeline throughput and lag through the pipeline hook', async () => {
    t = await startFeatureTest({ features: [metricsFeature] });
    t.kernel.observations.pipeline({ stage: 'che', events: 5, lagSeconds: 0.25 });
    t.kernel.observations.pipeline({ stage: 'che', events: 2 });
    const text = (await t.get('/metrics')).text;
    expect(sample(text, 'vigie_pipeline_events_total', { stage: 'che' })).toBe(7);
    expect(sample(text, 'vigie_pipeline_lag_seconds', { stage: 'che' })).toBe(0.25);
  });

  it('needs the usual credentials when no token is configured', async () => {
    t = await startFeatureTest({ features: [metricsFeature], config: { 'webserver.conf': { metrics: { process: 'false' } } } });
    expect((await t.get('/metrics', { auth: false })).status).toBe(401);
    const res = await t.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).not.toContain('vigie_process_resident_memory_bytes');
  });

  it('answers only the configured bearer token when one is set', async () => {
    const token = 'scrape-token-0123456789';
    t = await startFeatureTest({ features: [metricsFeature], env: { VIGIE_METRICS__TOKEN: token } });
    const bearer = (value: string) => ({ auth: false as const, headers: { authorization: `Bearer ${value}` } });
    expect((await t.get('/metrics', bearer(token))).status).toBe(200);
    const wrong = await t.get('/metrics', bearer('scrape-token-wrong-value'));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="vigie-metrics"');
    expect(wrong.body).toEqual({ name: '', description: 'A valid bearer token is required' });
    expect(wrong.text).not.toContain(token);
    expect((await t.get('/metrics')).status).toBe(401);
  });

  it('refuses a short token at start', async () => {
    await expect(startFeatureTest({ features: [metricsFeature], env: { VIGIE_METRICS__TOKEN: 'short' } })).rejects.toThrow('token must be at least 16 characters');
  });
});
