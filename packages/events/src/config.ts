import { boolean, number, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { durationSeconds, durationSetting } from '@vigie/input';
import { parseByteSize } from '@vigie/kernel-http';

function isByteSize(value: string | undefined): boolean {
  try {
    return value !== undefined && parseByteSize(value) > 0;
  } catch {
    return false;
  }
}

const duration = (key: string, fallback: string) =>
  durationSetting(key, fallback).test(key, `${key} must be longer than 0s`, (value) => value === undefined || (durationSeconds(value) ?? 0) > 0);

/** `[engine]` of `etc/webserver.conf`: the event pipeline and the period of every engine's beat. */
export const engineConfigSchema = object({
  /** Period of every periodic beat of every engine (resolution, delays, snooze expiry, …); tests and demos set `1s`. */
  beat_interval: duration('beat_interval', '60s'),
  /** Events one ingestion request may carry; a larger batch is refused with 413. */
  max_batch_events: number().integer().min(1).max(1_000_000).default(10_000),
  /** Largest ingestion request body (`64mb`, `1gib`, bytes); a larger one is refused with 413. */
  max_body_size: string().test('byte-size', 'max_body_size must be a size such as 64mb', isByteSize).default('64mb'),
  /** Entities processed concurrently: events of one entity always go through one lane, one at a time. */
  lanes: number().integer().min(1).max(1024).default(512),
  /**
   * Backpressure: while this many accepted events wait to be processed, new events wait before being accepted (an
   * HTTP answer comes later, AMQP messages stay unacknowledged), so the queue, the memory and the latency stay bounded.
   */
  max_waiting_events: number().integer().min(1).default(1_000),
  /**
   * Whether `POST /api/v2/event` accepts a `changestate` or `keepstate` to state 0 (info). The original's web service
   * refuses them unless its UI setting of this name allows them (REFERENCE §4.13).
   */
  allow_change_severity_to_info: boolean().default(false),
  /** The health check reports the pipeline as lagging when more events than this wait to be processed. */
  max_queue_depth: number().integer().min(1).default(100_000),
  /** … or when the oldest waiting event was accepted longer ago than this. */
  max_event_age: duration('max_event_age', '1m'),
  /** Rule previews: the last events kept per connector (0: none kept, previews of event rules then list nothing). */
  recent_events_per_connector: number().integer().min(0).max(10_000).default(100),
  /** … for at most this many connectors (the least recently active one is forgotten first). */
  recent_events_connectors: number().integer().min(1).max(10_000).default(200),
  /** … and none older than this. */
  recent_events_max_age: duration('recent_events_max_age', '1h'),
  /**
   * Nodes sharing a store: a node that has not renewed its lease for this long counts as dead, and another node
   * processes the events it left queued (renewed every third of it).
   */
  node_lease: duration('node_lease', '30s'),
});

export type EngineConfig = InferType<typeof engineConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const engineConfig = featureConfig(engineConfigSchema, { section: 'engine' });

/** Milliseconds in a validated `<n><unit>` duration. */
export function durationMs(text: string): number {
  return (durationSeconds(text) ?? 0) * 1000;
}
