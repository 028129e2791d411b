/**
 * `kernelRefs.streamLimits`: the `[server]` bounds of long-lived answers (server-sent event streams), so every
 * feature that streams is bounded alike.
 */
export interface StreamLimits {
  /** Streams open at once on this node (`stream_max_connections`); one more is refused with 503. */
  readonly maxConnections: number;
  /** Messages waiting for one slow reader (`stream_queue_events`); one more drops the connection. */
  readonly queueEvents: number;
  /** Period of the comment line that keeps proxies from closing a quiet stream (`stream_heartbeat_ms`). */
  readonly heartbeatMs: number;
  /** Messages kept for clients resuming with `Last-Event-ID` (`stream_replay_events`). */
  readonly replayEvents: number;
}
