/** The outcome of one health check: `ok` plus a message that says what failed. */
export interface HealthResult {
  ok: boolean;
  message: string;
}

export interface HealthCheck {
  /** Unique name, e.g. `database`, `amqp`, `cache`, `engines`. */
  name: string;
  /** Bounded by `timeoutMs` (default 5 s); a timeout counts as a failure. */
  check(): Promise<HealthResult>;
  timeoutMs?: number;
}

/** Features contribute checks; the healthcheck feature (or anyone) runs them. */
export class HealthRegistry {
  readonly #checks = new Map<string, HealthCheck>();

  register(check: HealthCheck): void {
    if (this.#checks.has(check.name)) throw new Error(`health check "${check.name}" is registered twice`);
    this.#checks.set(check.name, check);
  }

  names(): string[] {
    return [...this.#checks.keys()];
  }

  has(name: string): boolean {
    return this.#checks.has(name);
  }

  async run(name: string): Promise<HealthResult> {
    const check = this.#checks.get(name);
    if (!check) return { ok: false, message: `no health check named ${name}` };
    const timeoutMs = check.timeoutMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        check.check(),
        new Promise<HealthResult>((resolve) => {
          timer = setTimeout(() => resolve({ ok: false, message: `${name} check timed out after ${timeoutMs} ms` }), timeoutMs);
        }),
      ]);
    } catch (err) {
      return { ok: false, message: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
  }

  async runAll(): Promise<Record<string, HealthResult>> {
    const names = this.names();
    const results = await Promise.all(names.map((n) => this.run(n)));
    return Object.fromEntries(names.map((n, i) => [n, results[i] as HealthResult]));
  }
}
