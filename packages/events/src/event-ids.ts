import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `<ms, 11 base-36 digits>-<sequence, 6 base-36 digits>`: ids of one node sort in the order they were made. */
const idPattern = /^([0-9a-z]{11})-([0-9a-z]{6})$/;

/**
 * Event ids of one node: unique and increasing in acceptance order, also across restarts (a restart continues
 * after the last queued id even when the clock did not move, as a test's manual clock does not).
 */
export class EventIdSequence {
  #lastMs = 0;
  #sequence = 0;

  /** Continues after `lastId` (the newest queued id of this node). */
  resumeAfter(lastId: string | undefined): void {
    const m = lastId ? idPattern.exec(lastId.slice(0, 18)) : null;
    if (!m) return;
    const ms = parseInt(m[1] as string, 36);
    const sequence = parseInt(m[2] as string, 36);
    if (ms > this.#lastMs || (ms === this.#lastMs && sequence >= this.#sequence)) {
      this.#lastMs = ms;
      this.#sequence = sequence + 1;
    }
  }

  next(nowMs: number): string {
    if (nowMs > this.#lastMs) {
      this.#lastMs = nowMs;
      this.#sequence = 0;
    }
    const id = `${this.#lastMs.toString(36).padStart(11, '0')}-${this.#sequence.toString(36).padStart(6, '0')}`;
    this.#sequence++;
    return id;
  }
}

/**
 * This node's name, kept in the data directory so a restarted node finds the events it had accepted (several
 * nodes may share one MongoDB store; each processes its own queue).
 */
export function nodeName(dataDir: string): string {
  const file = join(dataDir, 'events-node-id');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored !== '') return stored;
  }
  const name = randomBytes(6).toString('hex');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${name}\n`);
  return name;
}
