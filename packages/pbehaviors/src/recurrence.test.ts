import { describe, expect, it } from 'vitest';
import { parseRecurrence, RecurrenceError } from './recurrence.js';

describe('parseRecurrence', () => {
  it('accepts the rules the original UI produced, with or without the RRULE: prefix, in any case', () => {
    expect(parseRecurrence('FREQ=WEEKLY;BYDAY=MO,FR')).toMatchObject({ frequency: 'WEEKLY', interval: 1, count: null, until: null });
    expect(parseRecurrence('RRULE:freq=daily;interval=2;count=5')).toMatchObject({ frequency: 'DAILY', interval: 2, count: 5 });
    expect(parseRecurrence('FREQ=MONTHLY;BYDAY=-1FR;BYMONTH=1,6;BYSETPOS=1').parts).toMatchObject({ bymonth: [1, 6], bysetpos: [1] });
  });

  it('reads UNTIL as a real instant with Z, as a wall-clock time without', () => {
    expect(parseRecurrence('FREQ=DAILY;UNTIL=20240102T030405Z').until).toEqual({ kind: 'instant', epochSec: Date.UTC(2024, 0, 2, 3, 4, 5) / 1000 });
    expect(parseRecurrence('FREQ=DAILY;UNTIL=20240102').until).toEqual({ kind: 'wall-clock', wallSec: Date.UTC(2024, 0, 2) / 1000 });
  });

  it.each([
    ['BYDAY=MO', 'FREQ is required'],
    ['FREQ=FORTNIGHTLY', 'FREQ must be one of YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY, SECONDLY, not "FORTNIGHTLY"'],
    ['FREQ=WEEKLY;FOO=1', 'unknown part "FOO"'],
    ['FREQ=WEEKLY;BYDAY=XX', 'BYDAY weekdays must be one of MO, TU, WE, TH, FR, SA, SU, not "XX"'],
    ['FREQ=WEEKLY;BYDAY=0MO', 'BYDAY positions must be 1 to 53 or -53 to -1, not "0MO"'],
    ['FREQ=DAILY;COUNT=x', 'COUNT must be an integer between 1 and 10000, not "X"'],
    ['FREQ=DAILY;COUNT=100001', 'COUNT must be an integer between 1 and 10000, not "100001"'],
    ['FREQ=DAILY;INTERVAL=0', 'INTERVAL must be an integer between 1 and 10000, not "0"'],
    ['FREQ=DAILY;COUNT=2;UNTIL=20240101', 'COUNT and UNTIL cannot both be given'],
    ['FREQ=DAILY;UNTIL=2018', 'UNTIL must be a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, Z for UTC), not "2018"'],
    ['FREQ=DAILY;UNTIL=20230230', 'UNTIL is not a valid date: "20230230"'],
    ['FREQ=DAILY;BYHOUR=24', 'BYHOUR values must be integers from 0 to 23, not "24"'],
    ['FREQ=DAILY;BYMONTHDAY=-32', 'BYMONTHDAY values must be integers from 1 to 31 or -31 to -1, not "-32"'],
    ['FREQ=DAILY;FREQ=WEEKLY', 'FREQ is given twice'],
    ['FREQ=DAILY;', '"" is not a NAME=VALUE part'],
    ['hello', '"hello" is not a NAME=VALUE part'],
    ['DTSTART:20180101T000000Z\nRRULE:FREQ=DAILY', 'only one RRULE value is accepted (DTSTART comes from tstart, exceptions from exdate)'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseRecurrence(text)).toThrow(new RecurrenceError(message));
  });
});
