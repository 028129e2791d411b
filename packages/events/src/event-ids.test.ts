import { describe, expect, it } from 'vitest';
import { EventIdSequence } from './event-ids.js';

describe('EventIdSequence', () => {
  it('never makes an id again after a restart, even when the clock stood still or went back', () => {
    let reserved = 0;
    const first = new EventIdSequence((until) => (reserved = until));
    const made = [first.next(5_000), first.next(5_000), first.next(5_400)];
    expect([...made].sort()).toEqual(made);
    expect(reserved).toBe(6_000);

    // The next run: the queue is empty (every event processed), the clock is where it was, then earlier.
    for (const nowMs of [5_400, 4_000]) {
      const next = new EventIdSequence();
      next.resumeAt(reserved);
      next.resumeAfter(undefined);
      const id = next.next(nowMs);
      expect(made.every((old) => old < id)).toBe(true);
    }
  });

  it('reserves again once the ids reach the reservation, and continues after the newest queued id', () => {
    const reservations: number[] = [];
    const ids = new EventIdSequence((until) => reservations.push(until));
    ids.next(1_000);
    ids.next(1_999);
    ids.next(2_000);
    expect(reservations).toEqual([2_000, 3_000]);
    const queued = ids.next(2_500);
    const resumed = new EventIdSequence();
    resumed.resumeAfter(queued);
    expect(resumed.next(2_500) > queued).toBe(true);
  });
});
