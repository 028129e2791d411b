import { injectable } from 'tsyringe';
import { injectRef } from '@vigie/kernel';
import { eventEntitiesRef, type EventEntities } from '@vigie/context-graph';
import { entityIdOf, recentEventsRef, type RecentEvent, type RecentEvents } from '@vigie/events';
import type { PatternEntity, PatternEvent } from '@vigie/patterns';
import type { PreviewPage } from '@vigie/rule-schemas';
import { compileRule, InvalidRule, type CompiledRule } from './compiled-rules.js';
import type { RuleRecord } from './rule-repository.js';

/** What an event-filter rule would have done lately: the sampled events its patterns match. */
export interface RulePreview extends PreviewPage<RecentEvent> {
  /** Why the pipeline would skip the rule (a disabled rule, a pattern, action or template it cannot run), when it would. */
  problem?: string;
}

/**
 * Event-filter rule previews: the recently processed events (the events feature's sample, as accepted) the rule's
 * patterns match, each with the entity it has now for `current_entity`, as the stage matches them.
 */
@injectable()
export class RulePreviewService {
  constructor(
    @injectRef(recentEventsRef) private readonly recent: RecentEvents,
    @injectRef(eventEntitiesRef) private readonly entities: EventEntities,
  ) {}

  async preview(record: RuleRecord, limit: number): Promise<RulePreview> {
    let rule: CompiledRule;
    try {
      if (record.enabled === false) throw new InvalidRule('the rule is disabled');
      rule = compileRule(record);
    } catch (err) {
      if (err instanceof InvalidRule) return { subject: 'events', count: 0, scanned: 0, data: [], problem: err.message };
      throw err;
    }
    return this.recent.select(limit, async (event) => {
      const entity = rule.patterns.matchesEverything ? undefined : ((await this.entities.peek(entityIdOf(event))) ?? undefined);
      return rule.patterns.matches(event as PatternEvent, entity as PatternEntity | undefined);
    });
  }
}
