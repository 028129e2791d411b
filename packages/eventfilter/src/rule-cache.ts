import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Logger } from '@vigie/kernel';
import { compileRules, type CompiledRule } from './compiled-rules.js';
import { RuleRepository } from './rule-repository.js';

/**
 * The compiled rules the pipeline applies, loaded at first use and again after every write through the API
 * (`invalidate`), so a rule created, changed or deleted applies to the next event — no periodic reload.
 */
@injectable()
export class RuleCache {
  #rules: Promise<CompiledRule[]> | undefined;
  #generation = 0;

  constructor(
    @inject(RuleRepository) private readonly repository: RuleRepository,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  rules(): Promise<CompiledRule[]> {
    this.#rules ??= this.#load();
    return this.#rules;
  }

  invalidate(): void {
    this.#generation++;
    this.#rules = undefined;
  }

  async #load(): Promise<CompiledRule[]> {
    const generation = this.#generation;
    try {
      const rules = compileRules(await this.repository.list(), (id, problem) =>
        this.logger.warn({ rule: id, problem }, 'event-filter rule skipped: the pipeline cannot apply it'),
      );
      // A write during the load made this list stale: the next event loads again.
      if (generation !== this.#generation) this.#rules = undefined;
      return rules;
    } catch (err) {
      this.#rules = undefined;
      throw err;
    }
  }
}
