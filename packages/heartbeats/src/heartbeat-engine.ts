import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, errorDetail, type Clock, type Logger } from '@vigie/kernel';
import { durationSeconds } from '@vigie/input';
import { RuleCache } from '@vigie/feature-kit';
import { eventIntakeRef, recentEventsRef, type EventIntake, type PipelineContext, type RecentEvent, type RecentEvents, type VigieEvent } from '@vigie/events';
import type { PreviewPage } from '@vigie/rule-schemas';
import { heartbeatsConfig, warmUpSeconds, type HeartbeatsConfig } from './config.js';
import { HeartbeatRepository, type HeartbeatRecord } from './heartbeat-repository.js';
import { HeartbeatStateRepository } from './heartbeat-state.js';
import { heartbeatAlarmResource } from './heartbeat-id.js';

/** The connector of the events the engine sends (REFERENCE §5.5). */
export const heartbeatConnector = 'heartbeat';
/** The component of the heartbeat alarms: their entity is `<pattern key:value pairs>/heartbeats`. */
export const heartbeatComponent = 'heartbeats';

interface WatchedHeartbeat {
  record: HeartbeatRecord;
  pattern: [string, string][];
  intervalSec: number;
  /** The resource of its alarm (`heartbeatAlarmResource`). */
  resource: string;
}

/**
 * The heartbeat engine (REFERENCE §5.5). The pipeline stage (order 300) records the last time an event matched each
 * heartbeat (every pattern key present in the event with an equal value) in `heartbeat_state`; when the heartbeat's
 * alarm was raised, the match sends the OK check that resolves it. Each beat raises the alarm of every heartbeat
 * whose interval passed without a match: a check with state 3 and the heartbeat's `output` on
 * `<id>/heartbeats`, injected into the pipeline like any accepted event.
 */
@injectable()
export class HeartbeatEngine {
  readonly #heartbeats: RuleCache<HeartbeatRecord, WatchedHeartbeat>;
  /** Heartbeat id ⇒ the second of the last match this process stored, to store at most one match per second. */
  readonly #storedMatch = new Map<string, number>();
  readonly #warmUpSec: number;
  #warmUpUntilSec = 0;

  constructor(
    @inject(HeartbeatRepository) heartbeats: HeartbeatRepository,
    @inject(HeartbeatStateRepository) private readonly states: HeartbeatStateRepository,
    @injectRef(eventIntakeRef) private readonly intake: EventIntake,
    @injectRef(recentEventsRef) private readonly recent: RecentEvents,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
    @injectRef(heartbeatsConfig.ref) config: HeartbeatsConfig,
  ) {
    this.#warmUpSec = warmUpSeconds(config);
    this.#heartbeats = new RuleCache({ source: heartbeats, compile: watchedHeartbeat, kind: 'heartbeat', logField: 'heartbeat', clock, logger });
  }

  /**
   * What the heartbeat would do if saved now (nothing stored): the recently processed events its pattern matches
   * (the events feature's sample), and when its alarm would be raised without a match: the first beat (about now)
   * starts its interval, since a new heartbeat knows no earlier match.
   */
  async preview(record: HeartbeatRecord, limit: number): Promise<HeartbeatPreview> {
    let heartbeat: WatchedHeartbeat;
    try {
      heartbeat = watchedHeartbeat(record);
    } catch (err) {
      return { subject: 'events', count: 0, scanned: 0, data: [], last_match: null, alarm_at: null, problem: errorDetail(err) };
    }
    let lastMatch: number | null = null;
    const page = await this.recent.select(limit, (event, receivedAt) => {
      const matched = !isOwnEvent(event) && matches(heartbeat, event);
      if (matched) lastMatch = Math.max(lastMatch ?? receivedAt, receivedAt);
      return matched;
    });
    return { ...page, last_match: lastMatch, alarm_at: this.clock.nowSec() + heartbeat.intervalSec };
  }

  /** The pipeline stage's part; nothing (no promise) when no heartbeat exists, known without reading the store. */
  eventSeen(context: PipelineContext): Promise<void> | undefined {
    if (isOwnEvent(context.event) || this.#heartbeats.fresh()?.length === 0) return undefined;
    return this.#eventSeen(context);
  }

  async #eventSeen(context: PipelineContext): Promise<void> {
    const { event } = context;
    const nowSec = Math.floor(context.acceptedAt / 1000);
    for (const heartbeat of await this.#heartbeats.rules()) {
      if (!matches(heartbeat, event)) continue;
      const id = heartbeat.record._id;
      if (this.#storedMatch.get(id) === nowSec) continue;
      this.#storedMatch.set(id, nowSec);
      context.trace('heartbeats', `event matches heartbeat ${id}`);
      if (await this.states.matched(id, nowSec)) await this.#send(heartbeat.resource, 0, '');
    }
  }

  /** Starts the interval of new heartbeats, raises the alarms of expired ones, closes those of deleted ones. */
  async beat(): Promise<number> {
    // Each beat reads the heartbeats: one deleted on another node has its alarm closed by the next beat anywhere.
    this.#heartbeats.invalidate();
    const watched = await this.#heartbeats.rules();
    const states = new Map((await this.states.all()).map((state) => [state._id, state]));
    const nowSec = this.clock.nowSec();
    let raised = 0;
    for (const heartbeat of watched) {
      const id = heartbeat.record._id;
      const state = states.get(id);
      states.delete(id);
      if (!state) {
        await this.states.start(id, nowSec, heartbeat.resource);
        continue;
      }
      if (state.alarm || nowSec - state.last_match < heartbeat.intervalSec || nowSec < this.#warmUpUntilSec) continue;
      if (!(await this.states.raise(id, state.last_match, heartbeat.resource))) continue;
      this.logger.info({ heartbeat: id, lastMatch: state.last_match, interval: heartbeat.record.expected_interval }, 'heartbeat expired: alarm raised');
      await this.#send(heartbeat.resource, 3, heartbeat.record.output ?? '');
      raised++;
    }
    // What is left belongs to deleted heartbeats (or to the old id of a changed pattern): close their alarms.
    for (const state of states.values()) {
      if (state.alarm && state.resource !== undefined) await this.#send(state.resource, 0, 'heartbeat deleted');
      await this.states.forget(state._id);
    }
    return raised;
  }

  /**
   * After a start: starts the warm-up (`[heartbeats] warm_up`) and sends the critical check again for every raised alarm, in case the previous run stopped between
   * marking it raised and sending it (a second critical check on a critical alarm changes nothing).
   */
  async resume(): Promise<void> {
    this.#warmUpUntilSec = this.clock.nowSec() + this.#warmUpSec;
    this.#heartbeats.invalidate();
    const byId = new Map((await this.#heartbeats.rules()).map((heartbeat) => [heartbeat.record._id, heartbeat]));
    for (const state of await this.states.all()) {
      const heartbeat = byId.get(state._id);
      if (state.alarm && heartbeat) await this.#send(heartbeat.resource, 3, heartbeat.record.output ?? '');
    }
  }

  /** A check on the heartbeat's alarm, `<resource>/heartbeats`. */
  async #send(resource: string, state: number, output: string): Promise<void> {
    const event: VigieEvent = {
      event_type: 'check',
      source_type: 'resource',
      connector: heartbeatConnector,
      connector_name: heartbeatConnector,
      component: heartbeatComponent,
      resource,
      timestamp: this.clock.nowSec(),
      state,
      output,
    };
    await this.intake.accept([event]);
  }
}

/** What a heartbeat would do now: the recent events it matches, and when its alarm would be raised. */
export interface HeartbeatPreview extends PreviewPage<RecentEvent> {
  /** The newest sampled event it matches (epoch seconds), or null. */
  last_match: number | null;
  /** When its alarm is raised if no event matches from now on (epoch seconds); null when it would be skipped. */
  alarm_at: number | null;
  /** Why the engine would skip the heartbeat, when it would. */
  problem?: string;
}

/** Every pattern key present in the event with an equal value. */
function matches(heartbeat: WatchedHeartbeat, event: VigieEvent): boolean {
  return heartbeat.pattern.every(([key, value]) => event[key] === value);
}

/** The engine's own checks match no heartbeat. */
function isOwnEvent(event: VigieEvent): boolean {
  return event.connector === heartbeatConnector && event.connector_name === heartbeatConnector;
}

/** What the engine watches of a heartbeat; throws when its pattern or interval cannot be used (stored by another tool). */
function watchedHeartbeat(record: HeartbeatRecord): WatchedHeartbeat {
  const intervalSec = durationSeconds(record.expected_interval);
  if (intervalSec === null || intervalSec <= 0) throw new Error(`expected_interval ${JSON.stringify(record.expected_interval)} is not a positive duration`);
  const pattern = Object.entries(record.pattern ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  if (pattern.length === 0) throw new Error('its pattern has no string value');
  return { record, pattern, intervalSec, resource: heartbeatAlarmResource(Object.fromEntries(pattern)) };
}
