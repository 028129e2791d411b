import { describe, expect, it } from 'vitest';
import { formatGoTime, GO_TIME_STRING_LAYOUT, RFC3339_NANO_LAYOUT } from './time.js';

// Tuesday 5 March 2024 (a leap year: day 65), 07:08:09.120 UTC.
const morning = new Date(Date.UTC(2024, 2, 5, 7, 8, 9, 120));
const evening = new Date(Date.UTC(2024, 11, 31, 23, 0, 0));

describe('Go reference-time layouts', () => {
  it.each([
    ['2006-01-02 15:04:05', '2024-03-05 07:08:09'],
    ['Mon Jan _2 3:4:5 PM 2006', 'Tue Mar  5 7:8:9 AM 2024'],
    ['Monday, January 2, 06', 'Tuesday, March 5, 24'],
    ['1/2 03h04', '3/5 07h08'],
    ['002 __2', '065  65'],
    ['.000 .999 ,000000 .9 .00', '.120 .12 ,120000 .1 .12'],
    ['05.0', '09.1'],
    ['MST -0700 -07:00 -07 Z07:00 Z0700 Z07 -070000 Z07:00:00', 'UTC +0000 +00:00 +00 Z Z Z +000000 Z'],
    ['_2006', '_2024'],
    ['the year 2006, literally', 'the year 2024, literally'],
    ['2006-01-02T15:04:05Z07:00', '2024-03-05T07:08:09Z'],
  ])('%s gives %s', (layout, expected) => {
    expect(formatGoTime(morning, layout)).toBe(expected);
  });

  it('writes the afternoon and the last day of the year', () => {
    expect(formatGoTime(evening, '3pm 03PM 15 002 Jan _2')).toBe('11pm 11PM 23 366 Dec 31');
  });

  it('drops a fraction of zeros entirely with 9s', () => {
    expect(formatGoTime(evening, '05.999|05.000')).toBe('00|00.000');
  });

  it('provides the layouts Go uses to print dates and to write them in JSON', () => {
    expect(formatGoTime(morning, GO_TIME_STRING_LAYOUT)).toBe('2024-03-05 07:08:09.12 +0000 UTC');
    expect(formatGoTime(evening, RFC3339_NANO_LAYOUT)).toBe('2024-12-31T23:00:00Z');
  });

  it('handles years before 100', () => {
    const ancient = new Date(0);
    ancient.setUTCFullYear(42, 0, 2);
    expect(formatGoTime(ancient, '2006 06 002')).toBe('0042 42 002');
  });

  it('refuses invalid dates', () => {
    expect(() => formatGoTime(new Date(NaN), '2006')).toThrow('invalid date');
  });
});
