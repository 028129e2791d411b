import { Query } from 'mingo';
import { injectable } from 'tsyringe';
import { HttpError, injectRef, kernelRefs, type Filter, type StreamLimits, type VigieContext } from '@vigie/kernel';
import { alarmListFilter, type AlarmSelection, type LiveAlarmSearch } from '@vigie/alarms';
import type { AlarmNotice, NoticeAlarm } from './alarm-notice.js';
import { SseConnection, sseFrame } from './sse-connection.js';
import { StreamHub, type Selector } from './stream-hub.js';

/** The variants of an alarm notice: as it happened, or as the change that made the alarm leave a stream. */
const asItHappened = 0;
const leaving = 1;

/** The alarm notices of this node (every node's changes, as the relay brings them). */
@injectable()
export class AlarmStreamHub extends StreamHub<AlarmNotice> {
  constructor(@injectRef(kernelRefs.streamLimits) limits: StreamLimits) {
    super(limits.replayEvents);
  }

  publishNotice(notice: AlarmNotice): void {
    this.publish(notice, (variant) => JSON.stringify({ type: variant === leaving ? 'leave' : notice.type, alarm: notice.alarm }));
  }
}

/** The active broadcast messages, each time they change (no replay: a client gets the current list first). */
@injectable()
export class BroadcastStreamHub extends StreamHub<null> {
  constructor() {
    super(0);
  }
}

/**
 * Which alarm notices a stream with the list's selection receives: those whose alarm matches the selection once
 * changed; a change after which the alarm no longer matches, though it did before, as a `leave`. `search` tests the
 * selection's search (`AlarmSearch.live`: the alarm's fields or its entity's infos).
 */
export function alarmNoticeSelector(selection: AlarmSelection, search: LiveAlarmSearch['test'] = () => true): Selector<AlarmNotice> {
  // The store filter without the search, which needs the entities' infos: `search` tests it.
  const unsearched = { ...selection, search: undefined };
  // Resolutions reach a stream of open alarms too: they are how an alarm leaves it.
  const current = alarmListFilter(unsearched);
  const resolution = alarmListFilter({ ...unsearched, opened: true, resolved: true }) as Filter;
  const tests = (filter: Filter | null): ((alarm: NoticeAlarm) => boolean) => {
    if (filter === null) return () => false;
    if (Object.keys(filter).length === 0) return search;
    const query = new Query(filter);
    return (alarm) => query.test(alarm as unknown as Record<string, unknown>) && search(alarm);
  };
  const matchesCurrent = tests(current);
  const matchesResolution = tests(resolution);
  return (notice) => {
    if (notice.type === 'resolve' ? matchesResolution(notice.alarm) : matchesCurrent(notice.alarm)) return asItHappened;
    return notice.previous !== null && matchesCurrent(notice.previous) ? leaving : null;
  };
}

/**
 * Opens server-sent event streams within the `[server] stream_*` bounds (connections of this node, queue per
 * connection, heartbeat) and ends them all when the server stops.
 */
@injectable()
export class StreamService {
  readonly #limits: StreamLimits;
  readonly #open = new Set<SseConnection>();

  constructor(@injectRef(kernelRefs.streamLimits) limits: StreamLimits) {
    this.#limits = limits;
  }

  get openCount(): number {
    return this.#open.size;
  }

  /** Answers `ctx` with a new stream (503 past `stream_max_connections`). */
  open(ctx: VigieContext): SseConnection {
    if (this.#open.size >= this.#limits.maxConnections) {
      throw new HttpError(503, `too many open streams (${this.#limits.maxConnections}); try again later`, { headers: { 'Retry-After': '5' } });
    }
    const connection = new SseConnection(ctx.res, {
      queueLimit: this.#limits.queueEvents,
      heartbeatMs: this.#limits.heartbeatMs,
    });
    this.#open.add(connection);
    connection.onClose(() => this.#open.delete(connection));
    ctx.status = 200;
    ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
    ctx.set('Cache-Control', 'no-cache, no-transform');
    // Proxies that buffer answers (nginx) would hold the events back.
    ctx.set('X-Accel-Buffering', 'no');
    ctx.req.socket.setNoDelay(true);
    ctx.body = connection.body;
    // The first bytes send the headers at once; `retry` is how long EventSource waits before reconnecting.
    connection.write('retry: 2000\n\n');
    return connection;
  }

  /** Tells a resuming client its `Last-Event-ID` cannot be resumed from: it must read the list again. */
  reload(connection: SseConnection, lastId: string, reason: string): void {
    connection.write(sseFrame(lastId, 'reload', JSON.stringify({ type: 'reload', reason })), 1);
  }

  endAll(): void {
    for (const connection of [...this.#open]) connection.end();
  }
}
