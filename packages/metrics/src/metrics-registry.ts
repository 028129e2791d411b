import { injectable } from 'tsyringe';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { HotCounter, HotHistogram } from './hot-path-metrics.js';
import { injectRef, kernelRefs } from '@vigie/kernel';
import {
  type HttpObservation,
  type JobObservation,
  type Observations,
  type PipelineObservation,
  type StoreObservation,
} from '@vigie/observability';
import { metricsConfig, type MetricsConfig } from './schemas.js';

/** Seconds: from sub-millisecond store reads to slow imports. */
const latencyBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Status codes as label values, made once each. */
const statusLabels: string[] = [];
const jobBuckets = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900];

/**
 * One prom-client registry per kernel (never the global one, so several kernels in a process do not mix), fed by the
 * kernel's observation hooks. The per-request and per-store-operation families are hot-path families rendered next
 * to the registry's text.
 */
@injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  readonly #requests = new HotCounter('vigie_http_requests_total', 'HTTP requests answered, by route template and status', ['method', 'route', 'status']);
  readonly #requestSeconds = new HotHistogram('vigie_http_request_duration_seconds', 'Time to answer HTTP requests, by route template', ['method', 'route'], latencyBuckets);
  readonly #storeSeconds = new HotHistogram('vigie_store_operation_duration_seconds', 'Store operations, by collection, operation and outcome', ['collection', 'operation', 'outcome'], latencyBuckets);
  readonly #jobRuns = new Counter({ name: 'vigie_job_runs_total', help: 'Finished job runs, by job and outcome (ok, failed)', labelNames: ['job', 'outcome'] as const, registers: [this.registry] });
  readonly #jobSeconds = new Histogram({ name: 'vigie_job_duration_seconds', help: 'Duration of job runs, by job', labelNames: ['job'] as const, buckets: jobBuckets, registers: [this.registry] });
  readonly #pipelineEvents = new Counter({ name: 'vigie_pipeline_events_total', help: 'Events handled by each event-pipeline stage', labelNames: ['stage'] as const, registers: [this.registry] });
  readonly #pipelineDropped = new Counter({ name: 'vigie_pipeline_dropped_total', help: 'Events each event-pipeline stage dropped (invalid, filtered out)', labelNames: ['stage'] as const, registers: [this.registry] });
  readonly #pipelineLag = new Gauge({ name: 'vigie_pipeline_lag_seconds', help: 'Age of the newest event a pipeline stage handled, when it reported', labelNames: ['stage'] as const, registers: [this.registry] });

  constructor(
    @injectRef(kernelRefs.observations) private readonly observations: Observations,
    @injectRef(metricsConfig.ref) private readonly config: MetricsConfig,
  ) {}

  /** Subscribes to the kernel's observations (once, at start). */
  listen(): void {
    if (this.config.process) collectDefaultMetrics({ register: this.registry, prefix: 'vigie_' });
    this.observations.on('http', (o: HttpObservation) => {
      // Unmatched paths share one label: arbitrary request paths must not create series.
      const route = o.route ?? 'unmatched';
      this.#requests.inc(o.method, route, (statusLabels[o.status] ??= String(o.status)));
      this.#requestSeconds.observe(o.seconds, o.method, route);
    });
    this.observations.on('store', (o: StoreObservation) => this.#storeSeconds.observe(o.seconds, o.collection, o.operation, o.ok ? 'ok' : 'failed'));
    this.observations.on('job', (o: JobObservation) => {
      this.#jobRuns.labels(o.job, o.ok ? 'ok' : 'failed').inc();
      this.#jobSeconds.labels(o.job).observe(o.seconds);
    });
    this.observations.on('pipeline', (o: PipelineObservation) => {
      this.#pipelineEvents.labels(o.stage).inc(o.events);
      if (o.dropped) this.#pipelineDropped.labels(o.stage).inc(o.dropped);
      if (o.lagSeconds !== undefined) this.#pipelineLag.labels(o.stage).set(o.lagSeconds);
    });
  }

  /** The exposition text and its media type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    const hot = [this.#requests, this.#requestSeconds, this.#storeSeconds].map((family) => family.render()).join('\n\n');
    return { contentType: this.registry.contentType, text: `${hot}\n\n${await this.registry.metrics()}` };
  }
}
