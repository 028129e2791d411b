import type { Alarm, AlarmPage } from '../api.js';

export const stateNames = ['ok', 'minor', 'major', 'critical'] as const;
export const statusNames = ['off', 'ongoing', 'stealthy', 'flapping', 'cancelled'] as const;

const time = (epoch: number | undefined) => (epoch === undefined ? '' : new Date(epoch * 1000).toLocaleString());

/** A column of the alarm list: what it shows and, when the server can sort on it, the field path it sorts by. */
export interface AlarmColumn {
  id: string;
  label: string;
  value(alarm: Alarm): string;
  sortKey?: string;
  /**
   * Its width in rem: the table's layout is fixed (columns do not resize as rows scroll into view, and the browser
   * lays out only the rows it shows); a column without one (the output) takes what is left.
   */
  width?: number;
}

export const alarmColumns: readonly AlarmColumn[] = [
  { id: 'state', label: 'State', value: (a) => stateNames[a.v.state.val as number] ?? String(a.v.state.val), sortKey: 'v.state.val', width: 6.5 },
  { id: 'status', label: 'Status', value: (a) => statusNames[a.v.status.val as number] ?? String(a.v.status.val), sortKey: 'v.status.val', width: 6.5 },
  { id: 'connector', label: 'Connector', value: (a) => `${a.v.connector}/${a.v.connector_name}`, sortKey: 'v.connector', width: 11 },
  { id: 'component', label: 'Component', value: (a) => a.v.component, sortKey: 'v.component', width: 11 },
  { id: 'resource', label: 'Resource', value: (a) => a.v.resource ?? '', sortKey: 'v.resource', width: 9 },
  { id: 'output', label: 'Output', value: (a) => a.v.output, sortKey: 'v.output' },
  { id: 'created', label: 'Created', value: (a) => time(a.v.creation_date), sortKey: 't', width: 12.5 },
  { id: 'updated', label: 'Last update', value: (a) => time(a.v.last_update_date), sortKey: 'v.last_update_date', width: 12.5 },
  { id: 'ticket', label: 'Ticket', value: (a) => (a.v.ticket?.val === undefined ? '' : String(a.v.ticket.val)), width: 8 },
  { id: 'ack', label: 'Ack', value: (a) => (a.v.ack ? `by ${a.v.ack.a}` : ''), width: 8 },
  { id: 'snooze', label: 'Snooze', value: (a) => (a.v.snooze?.val === undefined ? '' : `until ${time(Number(a.v.snooze.val))}`), width: 14 },
  { id: 'pbehavior', label: 'Maintenance', value: (a) => a.v.pbehavior_info?.name ?? '', width: 10 },
  { id: 'infos', label: 'Infos', value: (a) => Object.keys(a.v.infos ?? {}).join(', '), width: 10 },
];

export const defaultColumns = ['state', 'status', 'component', 'resource', 'output', 'updated'];
export const pageSizes = [50, 100, 500, 1000] as const;
export const maxSortKeys = 3;

export interface SortKey {
  column: string;
  dir: 'asc' | 'desc';
}

/** Everything the list shows, as held in the URL's query so that a link shares the view. */
export interface AlarmView {
  columns: string[];
  states: number[];
  statuses: number[];
  /** `yes`, `no` or `` (either). */
  acked: '' | 'yes' | 'no';
  search: string;
  /** `datetime-local` texts, in the browser's time zone. */
  from: string;
  to: string;
  sort: SortKey[];
  page: number;
  size: number;
  /** The alarm whose details are open. */
  open: string;
}

const numbers = (text: string | null, max: number) =>
  (text ?? '')
    .split(',')
    .filter((t) => /^\d$/.test(t))
    .map(Number)
    .filter((n) => n <= max);

/** Reads a view from a URL query; `extraColumns` are the ids of the columns extensions add. */
export function parseView(search: string, extraColumns: readonly string[] = []): AlarmView {
  const q = new URLSearchParams(search);
  const known = new Set([...alarmColumns.map((c) => c.id), ...extraColumns]);
  const columns = (q.get('columns') ?? '').split(',').filter((c) => known.has(c));
  const sortable = new Set(alarmColumns.filter((c) => c.sortKey).map((c) => c.id));
  const sort = (q.get('sort') ?? '')
    .split(',')
    .map((part) => {
      const [column = '', dir] = part.split(':');
      return { column, dir: dir === 'asc' ? ('asc' as const) : ('desc' as const) };
    })
    .filter((s) => sortable.has(s.column))
    .slice(0, maxSortKeys);
  const size = Number(q.get('size'));
  const page = Number(q.get('page'));
  const acked = q.get('acked');
  return {
    columns: columns.length > 0 ? columns : defaultColumns,
    states: numbers(q.get('state'), 3),
    statuses: numbers(q.get('status'), 4),
    acked: acked === 'yes' || acked === 'no' ? acked : '',
    search: (q.get('q') ?? '').slice(0, 256),
    from: q.get('from') ?? '',
    to: q.get('to') ?? '',
    sort: sort.length > 0 ? sort : [{ column: 'updated', dir: 'desc' }],
    page: Number.isInteger(page) && page > 1 ? page : 1,
    size: (pageSizes as readonly number[]).includes(size) ? size : 100,
    open: q.get('open') ?? '',
  };
}

/** The URL query of a view; defaults are left out so that links stay short. */
export function viewQuery(view: AlarmView): string {
  const q = new URLSearchParams();
  if (view.columns.join(',') !== defaultColumns.join(',')) q.set('columns', view.columns.join(','));
  if (view.states.length > 0) q.set('state', view.states.join(','));
  if (view.statuses.length > 0) q.set('status', view.statuses.join(','));
  if (view.acked) q.set('acked', view.acked);
  if (view.search) q.set('q', view.search);
  if (view.from) q.set('from', view.from);
  if (view.to) q.set('to', view.to);
  const sort = view.sort.map((s) => `${s.column}:${s.dir}`).join(',');
  if (sort !== 'updated:desc') q.set('sort', sort);
  if (view.page > 1) q.set('page', String(view.page));
  if (view.size !== 100) q.set('size', String(view.size));
  if (view.open) q.set('open', view.open);
  const text = q.toString();
  return text ? `?${text}` : '';
}

const epoch = (local: string) => {
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
};

/** Which alarms a view selects (`filter`, `search`, `tstart`, `tstop`): shared by the list and its live stream. */
function selection(view: AlarmView): URLSearchParams {
  const clauses: Record<string, unknown>[] = [];
  if (view.states.length > 0) clauses.push({ 'v.state.val': { $in: view.states } });
  if (view.statuses.length > 0) clauses.push({ 'v.status.val': { $in: view.statuses } });
  if (view.acked === 'yes') clauses.push({ 'v.ack': { $exists: true } });
  if (view.acked === 'no') clauses.push({ 'v.ack': { $exists: false } });
  const q = new URLSearchParams();
  if (clauses.length > 0) q.set('filter', JSON.stringify(clauses.length === 1 ? clauses[0] : { $and: clauses }));
  if (view.search) q.set('search', view.search);
  const from = epoch(view.from);
  const to = epoch(view.to);
  if (from !== undefined) q.set('tstart', String(from));
  if (to !== undefined) q.set('tstop', String(to));
  return q;
}

/** The `GET /alerts/get-alarms` query of a view. */
export function alarmQuery(view: AlarmView): string {
  const q = selection(view);
  q.set('limit', String(view.size));
  q.set('skip', String((view.page - 1) * view.size));
  q.set('sort', view.sort.map((s) => `${alarmColumns.find((c) => c.id === s.column)?.sortKey ?? 't'}:${s.dir.toUpperCase()}`).join(','));
  return `/alerts/get-alarms?${q.toString()}`;
}

/** The `GET /api/v2/alarms/stream` URL of a view: the changes of the alarms it selects. */
export function alarmStreamUrl(view: AlarmView): string {
  const query = selection(view).toString();
  return `/api/v2/alarms/stream${query ? `?${query}` : ''}`;
}

/** A message of the alarm stream: the alarm as stored after the change, without its steps. */
export interface AlarmNotice {
  type: 'create' | 'change' | 'resolve' | 'leave';
  alarm: Pick<Alarm, '_id' | 't' | 'd' | 'v'>;
}

export function isAlarmNotice(data: unknown): data is AlarmNotice {
  const notice = data as Partial<AlarmNotice> | null;
  return typeof notice === 'object' && notice !== null && typeof notice.type === 'string' && typeof notice.alarm?._id === 'string';
}

/**
 * A page of the list after one stream message, or undefined when the page cannot be patched and must be read again
 * (an alarm that now matches but is not on this page). A changed alarm is replaced in place (the entity and the
 * steps the list had are kept), a new one goes on top of the first page (which keeps `size` rows: its last one moves
 * on to the next page), a resolved or leaving one is removed.
 */
export function applyNotice(page: AlarmPage, notice: AlarmNotice, onFirstPage: boolean, size: number): AlarmPage | undefined {
  const block = page.data[0];
  if (!block) return undefined;
  const index = block.alarms.findIndex((a) => a._id === notice.alarm._id);
  const removed = notice.type === 'resolve' || notice.type === 'leave';
  if (removed && index < 0) return { data: [{ ...block, total: Math.max(0, block.total - 1) }] };
  // Checked before copying the rows: under a flood, most changes are of alarms on other pages.
  if (!removed && index < 0 && !(notice.type === 'create' && onFirstPage)) return undefined;
  const alarms = [...block.alarms];
  let total = block.total;
  if (removed) {
    alarms.splice(index, 1);
    total = Math.max(0, total - 1);
  } else if (index >= 0) {
    const old = alarms[index] as Alarm;
    alarms[index] = { ...old, ...notice.alarm, v: { ...notice.alarm.v, ...(old.v.steps ? { steps: old.v.steps } : {}) } };
  } else {
    alarms.unshift({ ...notice.alarm, entity: null });
    alarms.length = Math.min(alarms.length, size);
    total += 1;
  }
  return { data: [{ ...block, alarms, total, last: block.first + alarms.length - 1 }] };
}

/**
 * A page after several stream messages, in their order: those that can be patched are, and `complete` says whether
 * every one could (if not, the page must be read again; patching the others meanwhile keeps the rows on screen live).
 */
export function applyNotices(page: AlarmPage, notices: readonly AlarmNotice[], onFirstPage: boolean, size: number): { page: AlarmPage; complete: boolean } {
  let current = page;
  let complete = true;
  for (const notice of notices) {
    const next = applyNotice(current, notice, onFirstPage, size);
    if (next) current = next;
    else complete = false;
  }
  return { page: current, complete };
}
