import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `<ms, 11 base-36 digits>-<sequence, 6 base-36 digits>`: ids of one node sort in the order they were made. */
const idPattern = /^([0-9a-z]{11})-([0-9a-z]{6})$/;

/** How far ahead of the ids made so far the sequence reserves: a restart continues after the reservation. */
const reserveAheadMs = 1000;

/**
 * Event ids of one node: unique and increasing in acceptance order, also across restarts. Ids whose events were
 * processed and removed from the queue are still remembered by the alarms they changed, so a restart must never
 * make them again, even when the clock did not move (a test's manual clock) or went back (a clock step): the
 * sequence reserves the time ahead of the ids it makes (`reserve`, persisted by the caller before the ids are
 * used) and a restart continues after the reservation and after the newest queued id.
 */
export class EventIdSequence {
  #lastMs = 0;
  #sequence = 0;
  #reservedUntil = 0;
  /** `#prefix` is `<prefixMs in base 36>-`. */
  #prefixMs = -1;
  #prefix = '';

  constructor(private readonly reserve: (untilMs: number) => void = () => undefined) {}

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

  /** Continues at `ms` or later (the reservation of the previous run). */
  resumeAt(ms: number): void {
    if (ms > this.#lastMs) {
      this.#lastMs = ms;
      this.#sequence = 0;
    }
  }

  next(nowMs: number): string {
    if (nowMs > this.#lastMs) {
      this.#lastMs = nowMs;
      this.#sequence = 0;
    }
    if (this.#lastMs >= this.#reservedUntil) {
      this.#reservedUntil = this.#lastMs + reserveAheadMs;
      this.reserve(this.#reservedUntil);
    }
    // The millisecond's part is written once for all the ids of that millisecond.
    if (this.#prefixMs !== this.#lastMs) {
      this.#prefixMs = this.#lastMs;
      this.#prefix = `${this.#lastMs.toString(36).padStart(11, '0')}-`;
    }
    const id = `${this.#prefix}${this.#sequence.toString(36).padStart(6, '0')}`;
    this.#sequence++;
    return id;
  }
}

/** The file where a node keeps its id reservation (epoch ms), next to its name. */
export function idReservationFile(dataDir: string): string {
  return join(dataDir, 'events-id-reservation');
}

/** The reservation the previous run left, or 0. */
export function readIdReservation(dataDir: string): number {
  const file = idReservationFile(dataDir);
  if (!existsSync(file)) return 0;
  const ms = Number(readFileSync(file, 'utf8').trim());
  return Number.isSafeInteger(ms) && ms > 0 ? ms : 0;
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
