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

const seconds = (startedMs: number): number => (performance.now() - startedMs) / 1000;

/**
 * Times the promise-returning methods of `target` when someone listens; calls them straight through otherwise.
 * Each method's wrapper is made once (store reads run on every request; a closure per call showed in profiles).
 */
function timed<T extends object>(target: T, collection: string, observations: Observations): T {
  const wrappers = new Map<string, { method: (...a: unknown[]) => unknown; wrapper: (...a: unknown[]) => unknown }>();
  const wrap = (object: T, key: string, method: (...a: unknown[]) => unknown) => (...args: unknown[]): unknown => {
    if (!observations.listens('store')) return method.apply(object, args);
    const started = performance.now();
    const result = method.apply(object, args);
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
  return new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'collection') return value;
      const cached = wrappers.get(key);
      if (cached?.method === value) return cached.wrapper;
      const wrapper = wrap(object, key, value as (...a: unknown[]) => unknown);
      wrappers.set(key, { method: value as (...a: unknown[]) => unknown, wrapper });
      return wrapper;
    },
  });
}

/** What `observedStore` needs of a store (the kernel's store port): named collections, and perhaps write stamps. */
interface ObservableStore {
  collection(name: string): object;
  writeStamp?(collection: string): number;
}

/** The store as features see it: every collection operation reported to the observations. */
export function observedStore<S extends ObservableStore>(store: S, observations: Observations): S {
  const wrapped = timed(store, '*', observations);
  // Read on every authenticated request: not timed, and bound to the store itself rather than through the proxies.
  const writeStamp = store.writeStamp?.bind(store);
  return new Proxy(wrapped, {
    get(object, key, receiver) {
      if (key === 'writeStamp') return writeStamp;
      if (key !== 'collection') return Reflect.get(object, key, receiver) as unknown;
      return (name: string): object => timed(store.collection(name), name, observations);
    },
  });
}

/** A job whose runs are reported to the observations. */
export function observedJob<R, J extends { name: string; handler(run: R): Promise<void> }>(job: J, observations: Observations): J {
  return {
    ...job,
    handler: async (run: R) => {
      const started = performance.now();
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
