/**
 * Go's reference-time layouts (`Mon Jan 2 15:04:05 MST 2006`), applied in UTC. A layout is read left to right;
 * at each position the longest reference element starting there wins, in Go's order, and anything else is copied.
 */

/** Go's `time.Time.String()` layout, used when a date is printed. */
export const GO_TIME_STRING_LAYOUT = '2006-01-02 15:04:05.999999999 -0700 MST';
/** Go's `time.RFC3339Nano`, which `encoding/json` uses for dates. */
export const RFC3339_NANO_LAYOUT = '2006-01-02T15:04:05.999999999Z07:00';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Fixed elements, longest first where one is a prefix of another. */
const ELEMENTS = [
  'January', 'Jan', 'Monday', 'Mon', 'MST',
  '01', '02', '03', '04', '05', '06', '002',
  '15', '1', '2006', '2', '__2', '_2', '3', '4', '5', 'PM', 'pm',
  '-070000', '-07:00:00', '-0700', '-07:00', '-07',
  'Z070000', 'Z07:00:00', 'Z0700', 'Z07:00', 'Z07',
];

interface Fields {
  year: number;
  month: number;
  day: number;
  yearDay: number;
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const pad = (value: number, width: number, fill = '0'): string => {
  const digits = String(Math.abs(value)).padStart(width, fill);
  return value < 0 ? `-${digits}` : digits;
};

function formatElement(element: string, f: Fields): string {
  const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
  switch (element) {
    case 'January': return MONTHS[f.month] as string;
    case 'Jan': return (MONTHS[f.month] as string).slice(0, 3);
    case 'Monday': return WEEKDAYS[f.weekday] as string;
    case 'Mon': return (WEEKDAYS[f.weekday] as string).slice(0, 3);
    case 'MST': return 'UTC';
    case '1': return String(f.month + 1);
    case '01': return pad(f.month + 1, 2);
    case '2': return String(f.day);
    case '_2': return pad(f.day, 2, ' ');
    case '02': return pad(f.day, 2);
    case '__2': return pad(f.yearDay, 3, ' ');
    case '002': return pad(f.yearDay, 3);
    case '2006': return pad(f.year, 4);
    case '06': return pad(((f.year % 100) + 100) % 100, 2);
    case '15': return pad(f.hour, 2);
    case '3': return String(hour12);
    case '03': return pad(hour12, 2);
    case '4': return String(f.minute);
    case '04': return pad(f.minute, 2);
    case '5': return String(f.second);
    case '05': return pad(f.second, 2);
    case 'PM': return f.hour >= 12 ? 'PM' : 'AM';
    case 'pm': return f.hour >= 12 ? 'pm' : 'am';
    default:
      // Numeric zones: always UTC, so `Z...` forms print `Z` and `-07...` forms print zeros in their shape.
      return element.startsWith('Z') ? 'Z' : `+${element.slice(1).replace(/7/g, '0')}`;
  }
}

/** The reference element at `index`, if any, following Go's precedence rules. */
function elementAt(layout: string, index: number): string | undefined {
  // `_2006` is a literal underscore followed by the year, not the space-padded day.
  if (layout.startsWith('_2006', index)) return undefined;
  return ELEMENTS.find((element) => layout.startsWith(element, index));
}

/**
 * A fractional-second element: `.` or `,` followed by a run of `0` (fixed digits) or `9` (trailing zeros
 * dropped) that is not itself followed by a digit. Returns its length.
 */
function fractionAt(layout: string, index: number): number {
  const separator = layout[index];
  const digit = layout[index + 1];
  if ((separator !== '.' && separator !== ',') || (digit !== '0' && digit !== '9')) return 0;
  let end = index + 1;
  while (layout[end] === digit) end += 1;
  const next = layout[end];
  return next !== undefined && next >= '0' && next <= '9' ? 0 : end - index;
}

function formatFraction(millisecond: number, separator: string, digitCount: number, trimZeros: boolean): string {
  // Dates have millisecond precision: the digits beyond the third are zeros.
  let digits = `${pad(millisecond, 3)}000000`.slice(0, Math.min(digitCount, 9)).padEnd(digitCount, '0');
  if (trimZeros) digits = digits.replace(/0+$/, '');
  return digits === '' ? '' : separator + digits;
}

export function formatGoTime(date: Date, layout: string): string {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new Error('invalid date');
  // Not Date.UTC, which maps years 0-99 to 1900-1999.
  const startOfYear = new Date(0);
  startOfYear.setUTCFullYear(date.getUTCFullYear(), 0, 1);
  const fields: Fields = {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth(),
    day: date.getUTCDate(),
    yearDay: Math.floor((time - startOfYear.getTime()) / 86_400_000) + 1,
    weekday: date.getUTCDay(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
  };
  let out = '';
  let index = 0;
  while (index < layout.length) {
    const fractionLength = fractionAt(layout, index);
    if (fractionLength > 0) {
      out += formatFraction(fields.millisecond, layout[index] as string, fractionLength - 1, layout[index + 1] === '9');
      index += fractionLength;
      continue;
    }
    const element = elementAt(layout, index);
    if (element === undefined) {
      out += layout[index];
      index += 1;
    } else {
      out += formatElement(element, fields);
      index += element.length;
    }
  }
  return out;
}

/** `.Unix` on a date: whole seconds since the epoch, rounded down like Go. */
export function unixSeconds(date: Date): number {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new Error('invalid date');
  return Math.floor(time / 1000);
}
