import { errorDetail, type Clock, type Doc, type Logger } from '@vigie/kernel';

/** Where a cache reads its rules: a feature's repository (`DocumentRepository` is one). */
export interface RuleSource<R extends Doc> {
  list(): Promise<R[]>;
  /** Writes through this process: the rules are read again at once after one. */
  readonly writes: number;
  /** Calls `listener` when the rules may have changed on any node sharing the store; returns the unsubscription. */
  watch?(listener: () => void): () => void;
}

export interface RuleCacheOptions<R extends Doc, C> {
  source: RuleSource<R>;
  /** A rule's compiled form; throws when the rule cannot be applied (logged once per version of the rule, then left out). */
  compile: (record: R) => C;
  /** What a rule is, in the log line of one left out (`idle rule` ⇒ "idle rule skipped: it cannot be applied"). */
  kind: string;
  /** The log line's field naming the rule left out (default `rule`). */
  logField?: string;
  /** The order rules are applied in (default: the source's). */
  order?: (a: R, b: R) => number;
  /**
   * The rules are read again when older than this (default `ruleRefreshMs`): the safety net for a change whose
   * notification was lost, and the only way other nodes' writes show with a store that sends none.
   */
  refreshMs?: number;
  clock: Clock;
  logger: Logger;
}

/** How old compiled rules may get before they are read again, unless an engine says otherwise. */
export const ruleRefreshMs = 10_000;

interface Compiled<C> {
  json: string;
  compiled: C | null;
}

/**
 * The compiled rules of one collection, as an engine applies them: read once however many callers ask at the same
 * time, each rule compiled once per version (its stored JSON), a rule that cannot be compiled logged once per
 * version and left out. They are read again after a write through this process, when the store says another node
 * changed them (`RuleSource.watch`), on `invalidate()`, and when older than `refreshMs`.
 */
export class RuleCache<R extends Doc, C> {
  readonly #options: RuleCacheOptions<R, C>;
  readonly #byId = new Map<string, Compiled<C>>();
  #rules: C[] = [];
  /** Bumped by every invalidation: a load that started before one does not count as fresh. */
  #generation = 0;
  #loaded: { generation: number; writes: number; atMs: number } | undefined;
  #loading: { generation: number; promise: Promise<C[]> } | undefined;
  readonly #unwatch: (() => void) | undefined;

  constructor(options: RuleCacheOptions<R, C>) {
    this.#options = options;
    this.#unwatch = options.source.watch?.(() => this.invalidate());
  }

  /** The rules that can be applied, in order. */
  rules(): Promise<C[]> {
    const fresh = this.fresh();
    if (fresh !== undefined) return Promise.resolve(fresh);
    if (this.#loading?.generation !== this.#generation) {
      const loading = { generation: this.#generation, promise: this.#load(this.#generation) };
      this.#loading = loading;
      void loading.promise.finally(() => {
        if (this.#loading === loading) this.#loading = undefined;
      }).catch(() => undefined);
    }
    return (this.#loading as { promise: Promise<C[]> }).promise;
  }

  /**
   * The rules when those held are fresh (what `rules()` would answer without reading the store), else undefined:
   * lets a hot path skip its work synchronously when no rule exists, without a promise per call.
   */
  fresh(): C[] | undefined {
    const loaded = this.#loaded;
    const { source, clock, refreshMs = ruleRefreshMs } = this.#options;
    if (loaded && loaded.generation === this.#generation && loaded.writes === source.writes && clock.nowMs() - loaded.atMs < refreshMs) return this.#rules;
    return undefined;
  }

  /** The next `rules()` reads the rules again. */
  invalidate(): void {
    this.#generation++;
  }

  /** Stops listening to the source's change notifications. */
  close(): void {
    this.#unwatch?.();
  }

  async #load(generation: number): Promise<C[]> {
    const { source, order, clock } = this.#options;
    const writes = source.writes;
    const atMs = clock.nowMs();
    const records = await source.list();
    if (order) records.sort(order);
    const rules: C[] = [];
    const seen = new Set<string>();
    for (const record of records) {
      seen.add(record._id);
      const json = JSON.stringify(record);
      let known = this.#byId.get(record._id);
      if (known?.json !== json) {
        known = { json, compiled: this.#compile(record) };
        this.#byId.set(record._id, known);
      }
      if (known.compiled !== null) rules.push(known.compiled);
    }
    for (const id of this.#byId.keys()) if (!seen.has(id)) this.#byId.delete(id);
    // A newer load (after an invalidation) may have finished first: the older one's answer is not kept.
    if (this.#loaded === undefined || generation >= this.#loaded.generation) {
      this.#rules = rules;
      this.#loaded = { generation, writes, atMs };
    }
    return rules;
  }

  #compile(record: R): C | null {
    try {
      return this.#options.compile(record);
    } catch (err) {
      this.#options.logger.warn({ [this.#options.logField ?? 'rule']: record._id, problem: errorDetail(err) }, `${this.#options.kind} skipped: it cannot be applied`);
      return null;
    }
  }
}
