import type { JobDefinition } from './feature.js';
import type { Collection, Store } from './store/port.js';

/** One answered HTTP request. */
export interface HttpObservation {
  method: string;
  /** The route template of the request (`/api/v2/x/:id`), also when authentication failed; undefined when no route matched. */
  route: string | undefined;
  status: number;
  seconds: number;
}

/** One store operation (`find`, `insertOne`, `batch`…) on a collection (`*` for store-wide operations). */
export interface StoreObservation {
  collection: string;
  operation: string;
  seconds: number;
  ok: boolean;
}

/** One finished job run. */
export interface JobObservation {
  job: string;
  seconds: number;
  ok: boolean;
}

/**
 * Progress of an event-pipeline stage: how many events it handled since its last report and how old the newest
 * one was when handled. The kernel does not run a pipeline: a pipeline package reports through
 * `observations.pipeline(...)`.
 */
export interface PipelineObservation {
  stage: string;
  events: number;
  lagSeconds?: number;
  /** How many of those events the stage dropped (refused, filtered out). */
  dropped?: number;
}

interface Listeners {
  http: ((o: HttpObservation) => void)[];
  store: ((o: StoreObservation) => void)[];
  job: ((o: JobObservation) => void)[];
  pipeline: ((o: PipelineObservation) => void)[];
}

/**
 * Observation hooks (registered as `observations` in every feature container): the kernel reports requests, store
 * operations and job runs; a metrics feature listens. Listeners run synchronously and must not throw; with no
 * listener, reporting costs one array-length check.
 */
export class Observations {
  readonly #listeners: Listeners = { http: [], store: [], job: [], pipeline: [] };

  on<K extends keyof Listeners>(kind: K, listener: Listeners[K][number]): void {
    (this.#listeners[kind] as unknown[]).push(listener);
  }

  listens(kind: keyof Listeners): boolean {
    return this.#listeners[kind].length > 0;
  }

  http(o: HttpObservation): void {
    for (const l of this.#listeners.http) l(o);
  }

  store(o: StoreObservation): void {
    for (const l of this.#listeners.store) l(o);
  }

  job(o: JobObservation): void {
    for (const l of this.#listeners.job) l(o);
  }

  /** For an event-pipeline package: report a stage's throughput and lag. */
  pipeline(o: PipelineObservation): void {
    for (const l of this.#listeners.pipeline) l(o);
  }
}

const seconds = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;

/** Times the promise-returning methods of `target` when someone listens; calls them straight through otherwise. */
function timed<T extends object>(target: T, collection: string, observations: Observations): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'collection') return value;
      return (...args: unknown[]): unknown => {
        if (!observations.listens('store')) return (value as (...a: unknown[]) => unknown).apply(object, args);
        const started = process.hrtime.bigint();
        const result = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (!(result instanceof Promise)) return result;
        return result.then(
          (out: unknown) => {
            observations.store({ collection, operation: key, seconds: seconds(started), ok: true });
            return out;
          },
          (err: unknown) => {
            observations.store({ collection, operation: key, seconds: seconds(started), ok: false });
            throw err;
          },
        );
      };
    },
  });
}

/** The store as features see it: every collection operation reported to the observations. */
export function observedStore(store: Store, observations: Observations): Store {
  const wrapped = timed(store, '*', observations);
  return new Proxy(wrapped, {
    get(object, key, receiver) {
      if (key !== 'collection') return Reflect.get(object, key, receiver);
      return (name: string): Collection => timed(store.collection(name), name, observations);
    },
  });
}

/** A job whose runs are reported to the observations. */
export function observedJob<D>(job: JobDefinition<D>, observations: Observations): JobDefinition<D> {
  return {
    ...job,
    handler: async (run) => {
      const started = process.hrtime.bigint();
      try {
        await job.handler(run);
      } catch (err) {
        observations.job({ job: job.name, seconds: seconds(started), ok: false });
        throw err;
      }
      observations.job({ job: job.name, seconds: seconds(started), ok: true });
    },
  };
}
