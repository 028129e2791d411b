import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage enabled only while one of its runs is in progress. On Node 20 an enabled storage makes every
 * promise of the process, whoever creates it, run promise hooks (about a tenth of a small request's CPU); this one
 * disables itself when its last run ends, so the process pays them only while the context is in use. Work a run
 * starts without awaiting it sees the store only while some run is still in progress.
 */
export class RunScopedStorage<T> {
  readonly #storage = new AsyncLocalStorage<T>();
  #running = 0;

  /** Runs `work` with `store` as what `getStore` answers in it and in what it awaits. */
  async run<R>(store: T, work: () => Promise<R>): Promise<R> {
    this.#running += 1;
    try {
      return await this.#storage.run(store, work);
    } finally {
      this.#running -= 1;
      if (this.#running === 0) this.#storage.disable();
    }
  }

  getStore(): T | undefined {
    return this.#storage.getStore();
  }
}
