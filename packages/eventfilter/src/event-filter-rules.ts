import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { RuleCache, type RuleSource } from '@vigie/feature-kit';
import { applicationOrder, compileRule, type CompiledRule } from './compiled-rules.js';
import { RuleRepository, type RuleRecord } from './rule-repository.js';

/** The enabled rules of the repository: a disabled rule is neither compiled nor applied. */
function enabledRules(repository: RuleRepository): RuleSource<RuleRecord> {
  return {
    list: async () => (await repository.list()).filter((rule) => rule.enabled !== false),
    get writes() {
      return repository.writes;
    },
    watch: (listener) => repository.watch(listener),
  };
}

/**
 * The enabled rules the pipeline applies, compiled, in application order, in the feature kit's `RuleCache`: read
 * again after a write through this process, when the store says another node sharing it wrote one (PostgreSQL
 * NOTIFY, MongoDB change streams), and at least every 10 s. A rule the engine cannot run is skipped with a warning,
 * once per version.
 */
@injectable()
export class EventFilterRules {
  readonly #cache: RuleCache<RuleRecord, CompiledRule>;

  constructor(
    @inject(RuleRepository) repository: RuleRepository,
    @injectRef(kernelRefs.clock) clock: Clock,
    @injectRef(kernelRefs.logger) logger: Logger,
  ) {
    this.#cache = new RuleCache({ source: enabledRules(repository), compile: compileRule, order: applicationOrder, kind: 'event-filter rule', clock, logger });
  }

  /** The rules, read again when they may have changed. The same array until they are read again. */
  rules(): Promise<CompiledRule[]> {
    return this.#cache.rules();
  }

  /** The rules when those held are fresh, else undefined (`RuleCache.fresh`): the hot path's synchronous answer. */
  fresh(): CompiledRule[] | undefined {
    return this.#cache.fresh();
  }
}
