// When an entity's pbehaviors last stopped (the alarm-filter engine's postpone_if_active_pbehavior, REFERENCE §5.6).
import { describe, expect, it } from 'vitest';
import { Schedule } from './schedule.js';

const utc = (d: number, h = 0) => Date.UTC(2025, 0, d, h) / 1000;

describe('Schedule.lastEndAt', () => {
  const once = new Schedule({ tstart: utc(1, 8), tstop: utc(1, 10), rrule: null, timezone: 'UTC', exdate: [] });

  it('is null before a window begins, the time itself during it, its end after it', () => {
    expect(once.lastEndAt(utc(1, 7))).toBeNull();
    expect(once.lastEndAt(utc(1, 9))).toBe(utc(1, 9));
    expect(once.lastEndAt(utc(3))).toBe(utc(1, 10));
  });

  it('is the end of the last occurrence of a recurrence, or the time itself during one', () => {
    const daily = new Schedule({ tstart: utc(1, 8), tstop: utc(1, 10), rrule: 'FREQ=DAILY', timezone: 'UTC', exdate: [] });
    expect(daily.lastEndAt(utc(5, 12))).toBe(utc(5, 10));
    expect(daily.lastEndAt(utc(5, 9))).toBe(utc(5, 9));
    expect(daily.lastEndAt(utc(5, 7))).toBe(utc(4, 10));
  });
});
