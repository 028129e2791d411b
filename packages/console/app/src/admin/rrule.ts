/** The parts of an RFC 5545 recurrence rule that the calendar's editor offers. */
export interface Recurrence {
  freq: '' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  interval: number;
  /** Two-letter days (`MO` … `SU`), for weekly rules. */
  days: string[];
  end: 'never' | 'until' | 'count';
  /** A local date (`YYYY-MM-DD`): the last day an occurrence may start. */
  until: string;
  count: number;
}

export const weekDays = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export const noRecurrence: Recurrence = { freq: '', interval: 1, days: [], end: 'never', until: '', count: 5 };

/** The rule's text as the server takes it (`FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;COUNT=5`), or null for a single window. */
export function toRRule(r: Recurrence): string | null {
  if (r.freq === '') return null;
  const parts = [`FREQ=${r.freq}`];
  if (r.interval > 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.freq === 'WEEKLY' && r.days.length > 0) parts.push(`BYDAY=${weekDays.filter((d) => r.days.includes(d)).join(',')}`);
  if (r.end === 'count') parts.push(`COUNT=${r.count}`);
  if (r.end === 'until' && r.until) {
    // The end of that local day, written in UTC as RFC 5545 asks when the start has a zone.
    const end = new Date(`${r.until}T23:59:59`);
    parts.push(`UNTIL=${end.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`);
  }
  return parts.join(';');
}

/** Reads a stored rule back into the editor; parts it does not offer are dropped (the text is shown as saved). */
export function fromRRule(text: string | null | undefined): Recurrence {
  if (!text) return noRecurrence;
  const parts = new Map(
    text
      .replace(/^RRULE:/i, '')
      .split(';')
      .map((p) => p.split('=') as [string, string]),
  );
  const freq = parts.get('FREQ') ?? '';
  const until = parts.get('UNTIL');
  const untilDate = until ? new Date(until.replace(/^(\d{4})(\d{2})(\d{2})T?(\d{2})?(\d{2})?(\d{2})?Z?$/, (_, y, m, d, h = '00', mi = '00', s = '00') => `${y}-${m}-${d}T${h}:${mi}:${s}Z`)) : null;
  return {
    freq: (['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(freq) ? freq : '') as Recurrence['freq'],
    interval: Number(parts.get('INTERVAL') ?? 1) || 1,
    days: (parts.get('BYDAY') ?? '').split(',').filter((d) => (weekDays as readonly string[]).includes(d)),
    end: parts.has('COUNT') ? 'count' : untilDate ? 'until' : 'never',
    until: untilDate && !Number.isNaN(untilDate.getTime()) ? localDate(untilDate) : '',
    count: Number(parts.get('COUNT') ?? 5) || 5,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
export const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** A `datetime-local` input's value for an instant, in the browser's (the user's) time zone. */
export const localDateTime = (d: Date) => `${localDate(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
