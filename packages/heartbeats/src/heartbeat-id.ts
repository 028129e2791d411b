import { createHash } from 'node:crypto';

/** A heartbeat pattern: event fields and the exact string values they must hold. */
export type HeartbeatPattern = Readonly<Record<string, string>>;

/**
 * The id of the heartbeat watching `pattern`: md5 (hex) of the pattern's keys in sorted order, each followed by
 * its value, without separators. It is the original's formula, so one pattern always yields one id and a second
 * heartbeat for the same pattern is a duplicate. Text is hashed as UTF-8 (the original only hashed ASCII).
 */
export function heartbeatId(pattern: HeartbeatPattern): string {
  const hash = createHash('md5');
  for (const key of Object.keys(pattern).sort()) hash.update(key).update(pattern[key] ?? '');
  return hash.digest('hex');
}

/**
 * The resource of the heartbeat's alarm (REFERENCE §5.5): the pattern's `key:value` pairs in key order, joined with
 * `.` (e.g. `connector:c1.connector_name:n1`); the alarm's entity is `<that>/heartbeats`.
 */
export function heartbeatAlarmResource(pattern: HeartbeatPattern): string {
  return Object.keys(pattern)
    .sort()
    .map((key) => `${key}:${pattern[key] ?? ''}`)
    .join('.');
}
