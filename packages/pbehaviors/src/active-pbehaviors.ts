import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import type { Pbehavior } from './pbehavior.js';
import { PbehaviorIndex, type IndexedPbehavior } from './pbehavior-index.js';

/**
 * Which pbehaviors are active at one instant. `enabled` is not part of activeness (REFERENCE §5.9): every active
 * pbehavior is listed with its `enabled` flag, and callers decide (the weather ignores it, as the original did).
 */
export class ActivePbehaviorsAt {
  readonly at: number;
  readonly #index: PbehaviorIndex;

  constructor(index: PbehaviorIndex, at: number) {
    this.#index = index;
    this.at = at;
  }

  /** The pbehaviors active on an entity (those whose `eids` hold it), in no particular order. */
  on(entityId: string): Pbehavior[] {
    const active: Pbehavior[] = [];
    for (const entry of this.#index.on(entityId)) if (this.#isActive(entry)) active.push(entry.record);
    return active;
  }

  /** Whether at least one pbehavior is active on the entity. */
  isPaused(entityId: string): boolean {
    for (const entry of this.#index.on(entityId)) if (this.#isActive(entry)) return true;
    return false;
  }

  /** The distinct `type_` values of the pbehaviors active on the entity. */
  pauseTypes(entityId: string): string[] {
    return [...new Set(this.on(entityId).map((pbehavior) => pbehavior.type_))];
  }

  /**
   * When the entity's pbehaviors last stopped: `at` while one is active, else the latest end of a past window or
   * occurrence, or null when none has begun (REFERENCE §5.6, `postpone_if_active_pbehavior`).
   */
  lastStop(entityId: string): number | null {
    let latest: number | null = null;
    for (const entry of this.#index.on(entityId)) {
      const end = entry.schedule?.lastEndAt(this.at) ?? null;
      if (end !== null && (latest === null || end > latest)) latest = end;
    }
    return latest;
  }

  /** Every active pbehavior. */
  all(): Pbehavior[] {
    const active: Pbehavior[] = [];
    for (const entry of this.#index.entries()) if (this.#isActive(entry)) active.push(entry.record);
    return active;
  }

  #isActive(entry: IndexedPbehavior): boolean {
    return entry.schedule?.isActiveAt(this.at) ?? false;
  }
}

/** The shared "is this entity paused now, and by which types" service, exported to dependent features. */
@injectable()
export class ActivePbehaviors {
  constructor(
    @inject(PbehaviorIndex) private readonly index: PbehaviorIndex,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  /** Activity at `at` (epoch seconds), now by default. */
  async at(at: number = this.clock.nowSec()): Promise<ActivePbehaviorsAt> {
    return new ActivePbehaviorsAt(await this.index.ready(), at);
  }
}
