import { describe, expect, it } from 'vitest';
import { asctime, execTime } from './time-format.js';

describe('asctime', () => {
  it('writes local time as Python time.asctime() does, padding a one-digit day with a space', () => {
    expect(asctime(new Date(2017, 7, 28, 17, 41, 27))).toBe('Mon Aug 28 17:41:27 2017');
    expect(asctime(new Date(2019, 8, 5, 5, 6, 40))).toBe('Thu Sep  5 05:06:40 2019');
  });
});

describe('execTime', () => {
  it('writes HH:MM:SS, each part on two digits, truncated to the second', () => {
    expect(execTime(0)).toBe('00:00:00');
    expect(execTime(999)).toBe('00:00:00');
    expect(execTime(238_999)).toBe('00:03:58');
    expect(execTime((25 * 3600 + 61) * 1000)).toBe('25:01:01');
    expect(execTime(100 * 3600 * 1000)).toBe('100:00:00');
  });
});
