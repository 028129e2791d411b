import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import { PreviewCollector, type PreviewPage } from '@vigie/rule-schemas';
import { durationMs, engineConfig, type EngineConfig } from './config.js';
import { PipelineOrder, type PipelineStage, type VigieEvent } from './pipeline.js';
import { copyOfEvent } from './pipeline-context.js';

/** One sampled event: as accepted, before the event filter changed it. */
export interface RecentEvent {
  /** When the pipeline took it (epoch seconds). */
  received_at: number;
  event: VigieEvent;
}

/** A ring of the last events of one connector. */
class ConnectorRing {
  readonly events: RecentEvent[] = [];
  #next = 0;

  constructor(private readonly size: number) {}

  add(entry: RecentEvent): void {
    if (this.events.length < this.size) this.events.push(entry);
    else this.events[this.#next] = entry;
    this.#next = (this.#next + 1) % this.size;
  }

  /** Oldest first. */
  ordered(): RecentEvent[] {
    return this.events.length < this.size ? this.events : [...this.events.slice(this.#next), ...this.events.slice(0, this.#next)];
  }
}

/**
 * A bounded sample of the events the pipeline processed lately, for the previews of rules on events ("which recent
 * events would this event filter or heartbeat have matched?"): the last `[engine] recent_events_per_connector` events
 * of each of at most `recent_events_connectors` connectors (the least recently active connector is forgotten first),
 * none older than `recent_events_max_age`. Kept in memory by each node: a node samples the events it processed.
 */
@injectable()
export class RecentEvents {
  readonly #perConnector: number;
  readonly #connectors: number;
  readonly #maxAgeMs: number;
  /** Connector ⇒ its ring; the Map's order is the order of last activity (a connector is moved last on each event). */
  readonly #rings = new Map<string, ConnectorRing>();
  /**
   * The most recently active connector (last in `#rings`) and its ring: events come in runs from one connector, and
   * for those neither the key is made nor the map reordered.
   */
  #latest: { connector: string; name: string; ring: ConnectorRing } | undefined;

  constructor(
    @injectRef(engineConfig.ref) config: EngineConfig,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {
    this.#perConnector = config.recent_events_per_connector;
    this.#connectors = config.recent_events_connectors;
    this.#maxAgeMs = durationMs(config.recent_events_max_age);
  }

  record(event: VigieEvent): void {
    if (this.#perConnector === 0) return;
    const latest = this.#latest;
    let ring: ConnectorRing;
    if (latest !== undefined && latest.connector === event.connector && latest.name === event.connector_name) ring = latest.ring;
    else {
      const key = `${event.connector}/${event.connector_name}`;
      const known = this.#rings.get(key);
      if (known) this.#rings.delete(key);
      else if (this.#rings.size >= this.#connectors) this.#rings.delete(this.#rings.keys().next().value as string);
      ring = known ?? new ConnectorRing(this.#perConnector);
      this.#rings.set(key, ring);
      this.#latest = { connector: event.connector, name: event.connector_name, ring };
    }
    // Later stages change the trip's event; the sample keeps it as accepted.
    ring.add({ received_at: this.clock.nowSec(), event: copyOfEvent(event) });
  }

  /** The sampled events `selects` matches: connectors from the least recently active, each its events oldest first. */
  async select(limit: number, selects: (event: VigieEvent, receivedAt: number) => boolean | Promise<boolean>): Promise<PreviewPage<RecentEvent>> {
    const collector = new PreviewCollector<RecentEvent>('events', limit);
    const oldest = (this.clock.nowMs() - this.#maxAgeMs) / 1000;
    for (const ring of this.#rings.values()) {
      for (const entry of ring.ordered()) {
        if (entry.received_at < oldest) continue;
        collector.offer(await selects(entry.event, entry.received_at), () => entry);
      }
    }
    return collector.page();
  }
}

/** Order 50, before the event filter: samples each event as accepted. */
export function recentEventsStage(recent: RecentEvents): PipelineStage {
  return {
    name: 'events.recent-sample',
    order: PipelineOrder.eventFilter - 50,
    // Synchronous: nothing returned, so the runner spends no microtask on it.
    process(context) {
      recent.record(context.event);
      return undefined;
    },
  };
}
