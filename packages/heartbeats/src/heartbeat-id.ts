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
