/** A time budget shared by the steps of one check, so a service that stops answering cannot hold a request. */
export class Deadline {
  readonly budgetMs: number;
  readonly #endsAt: number;

  constructor(budgetMs: number) {
    this.budgetMs = budgetMs;
    this.#endsAt = performance.now() + budgetMs;
  }

  /** Settles like `work`, or rejects with "no answer within …" when the budget runs out first. */
  async bound<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within the ${this.budgetMs} ms check timeout`)), Math.max(0, this.#endsAt - performance.now()));
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The text of a thrown value, for failure messages. */
export function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
