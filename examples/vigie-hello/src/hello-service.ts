import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import { helloConfig, type HelloConfig, type Visit } from './schemas.js';
import { VisitRepository } from './visit-repository.js';

/** Greets, records visits, counts events by connector and the entities the event bus reports changed, summarises on a schedule. */
@injectable()
export class HelloService {
  /** Since this process started: the bus is in-process, the summary job persists the figure. */
  #changedEntities = 0;
  /** Events the pipeline stage saw, by connector, since this process started. */
  readonly #eventsByConnector = new Map<string, number>();

  constructor(
    @inject(VisitRepository) private readonly visits: VisitRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(helloConfig.ref) private readonly config: HelloConfig,
  ) {}

  greet(name: string): string {
    return `${this.config.greeting}, ${name}!`;
  }

  /** The pipeline stage: one more event from `connector`. */
  noteEvent(connector: string): void {
    this.#eventsByConnector.set(connector, (this.#eventsByConnector.get(connector) ?? 0) + 1);
  }

  /** Subscriber of `context-graph.entities-changed`. */
  noteChangedEntities(ids: readonly string[]): void {
    this.#changedEntities += ids.length;
  }

  async recordVisit(name: string): Promise<Visit> {
    const record = await this.visits.add(name, this.clock.nowSec());
    return { _id: record._id, name: record.name, at: record.at };
  }

  async status(user: string): Promise<{ greeting: string; visits: number; changed_entities: number; events_by_connector: Record<string, number>; last_summary: number | null }> {
    const [visits, summary] = await Promise.all([this.visits.count(), this.visits.lastSummary()]);
    return {
      greeting: this.greet(user),
      visits,
      changed_entities: this.#changedEntities,
      events_by_connector: Object.fromEntries(this.#eventsByConnector),
      last_summary: summary?.at ?? null,
    };
  }

  /** The scheduled job: trims old visits and saves a summary. */
  async summarise(): Promise<void> {
    await this.visits.trim(this.config.max_visits);
    await this.visits.saveSummary({ _id: 'summary', visits: await this.visits.count(), changed_entities: this.#changedEntities, at: this.clock.nowSec() });
  }

  async health(): Promise<{ ok: boolean; message: string }> {
    await this.visits.ping();
    return { ok: true, message: `${await this.visits.count()} visits` };
  }
}
