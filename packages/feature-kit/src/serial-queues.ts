/**
 * Runs work one at a time per key, in call order, different keys concurrently: the per-entity (or per-rule) order
 * the event pipeline's engines need. A failed run does not stop the ones queued after it. A key is forgotten once
 * its queue is empty, so the map holds only keys with work in flight.
 */
export class SerialQueues<K = string> {
  readonly #tails = new Map<K, Promise<unknown>>();

  /** Runs `work` after every run already queued under `key`; resolves or rejects as `work` does. */
  run<T>(key: K, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return run;
  }

  /** Keys with work queued or running. */
  get size(): number {
    return this.#tails.size;
  }
}
