import { describe, expect, it } from 'vitest';
import { occurrenceWalk, parseRecurrence, RecurrenceError, recurrenceRule } from './recurrence.js';

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

describe('occurrence walks give the occurrences of rrule iterating from the start', () => {
  /** A fixed pseudo-random sequence: the same rules on every run. */
  let seed = 2024;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const some = <T>(items: readonly T[], max: number): T[] => items.filter(() => random() < max / items.length);
  const sortedInts = (min: number, max: number, count: number) => [...new Set(Array.from({ length: count }, () => int(min, max)))].sort((a, b) => a - b);

  /** Rules computed directly, with now and then a part that leaves them to rrule, or always one and no COUNT. */
  function randomRule(leftToRrule: boolean): string {
    const parts = [`FREQ=${['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'][int(0, 3)]}`];
    if (random() < 0.4) parts.push(`INTERVAL=${int(2, 5)}`);
    if (random() < 0.4) parts.push(`BYDAY=${(some(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], 3).join(',') || 'SU')}`);
    if (random() < 0.35) parts.push(`BYMONTHDAY=${[...sortedInts(1, 31, int(1, 3)), ...(random() < 0.3 ? [-int(1, 3)] : [])].join(',')}`);
    if (random() < 0.25) parts.push(`BYMONTH=${sortedInts(1, 12, int(1, 4)).join(',')}`);
    if (random() < 0.35) parts.push(`BYHOUR=${(random() < 0.1 ? [14, 2] : sortedInts(0, 23, int(1, 3))).join(',')}`);
    if (random() < 0.15) parts.push(`BYMINUTE=${sortedInts(0, 59, int(1, 2)).join(',')}`);
    if (random() < 0.1) parts.push(`BYSECOND=${sortedInts(0, 59, int(1, 2)).join(',')}`);
    if (random() < 0.2) parts.push(`WKST=${['MO', 'SU', 'WE'][int(0, 2)]}`);
    const end = random();
    if (end < 0.15 && !leftToRrule) parts.push(`COUNT=${int(1, 40)}`);
    else if (end < 0.3) parts.push(`UNTIL=2025${String(int(1, 12)).padStart(2, '0')}${String(int(1, 28)).padStart(2, '0')}T120000`);
    const other = leftToRrule ? random() * 0.2 : random();
    if (other < 0.05) parts.push(`BYSETPOS=${[1, -1][int(0, 1)]}`);
    else if (other < 0.15) {
      // Without the day parts that could leave no day at all (rrule would then scan up to the year 9999).
      const kept = parts.filter((part) => !/^BYMONTH(DAY)?=/.test(part));
      parts.splice(0, parts.length, ...kept);
      if (other >= 0.1 && parts[0] === 'FREQ=YEARLY') parts.push('BYWEEKNO=1,20,-1');
      else parts.push(parts.some((part) => part.startsWith('BYDAY')) ? 'BYYEARDAY=1,100,-1' : 'BYDAY=1MO,-1FR');
    } else if (leftToRrule) parts.push('BYSETPOS=1,-1');
    return parts.join(';');
  }

  it('keeps BYSETPOS picking from whole weeks when a weekly rule restarts in the middle of one', () => {
    // From Wednesday 2024-01-03: the first of each week's Monday and Friday, so Mondays only, after the first week.
    const recurrence = parseRecurrence('FREQ=WEEKLY;BYDAY=MO,FR;BYSETPOS=1');
    const startWall = Date.UTC(2024, 0, 3, 8) / 1000;
    const fromWall = Date.UTC(2024, 1, 29) / 1000;
    const walked: number[] = [];
    occurrenceWalk(recurrence, startWall, null).walk(fromWall, (wall) => {
      if (wall >= fromWall) walked.push(wall);
      return walked.length < 2;
    });
    expect(walked.map((wall) => new Date(wall * 1000).toISOString())).toEqual(['2024-03-04T08:00:00.000Z', '2024-03-11T08:00:00.000Z']);
  });

  it.each([
    ['computed directly (most of them)', false, 150, 100],
    ['left to rrule', true, 100, 95],
  ])('for random rules %s, random starts and walk starts', (_, leftToRrule, rules, minStartingAnywhere) => {
    seed = leftToRrule ? 7 : 2024;
    let startingAnywhere = 0;
    for (let i = 0; i < rules; i++) {
      const text = randomRule(leftToRrule);
      const recurrence = parseRecurrence(text);
      const startWall = Date.UTC(2020, 0, 1) / 1000 + int(0, 5 * 365) * 86400 + int(0, 86399);
      const untilWall = recurrence.until?.kind === 'wall-clock' ? recurrence.until.wallSec : null;
      // Compared up to two years after the start (or the rrule occurrence that many).
      let horizon = startWall + 2 * 365 * 86400;
      const expected: number[] = [];
      recurrenceRule(recurrence, startWall, untilWall).all((date) => {
        const wall = date.getTime() / 1000;
        if (wall > horizon) return false;
        expected.push(wall);
        if (expected.length === 2000) horizon = wall;
        return expected.length < 2000;
      });
      const { walk, span } = occurrenceWalk(recurrence, startWall, untilWall);
      if (span !== null) startingAnywhere++;
      const from = span !== null ? [startWall, startWall - 86400, ...Array.from({ length: 6 }, () => startWall + int(0, 2 * 365 * 86400))] : [startWall];
      for (const fromWall of from) {
        const walked: number[] = [];
        walk(fromWall, (wall) => {
          if (wall > horizon) return false;
          if (wall >= fromWall) walked.push(wall);
          return walked.length < 60;
        });
        const want = expected.filter((wall) => wall >= fromWall).slice(0, 60);
        expect({ text, startWall, fromWall, walked }).toEqual({ text, startWall, fromWall, walked: want });
      }
    }
    // Rules with COUNT are walked from their start.
    expect(startingAnywhere).toBeGreaterThan(minStartingAnywhere);
  });
});
