import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent, type RefObject } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api, type Alarm, type AlarmPage } from '../api.js';
import type { LoadedExtensions } from '../extensions.js';
import { useAccount } from '../account.js';
import { useEventStream, type LiveStatus } from '../live.js';
import { AlarmActions, allowedActions, type ActionId } from './AlarmActions.js';
import { RowActionMenu } from './RowActionMenu.js';
import { AlarmDetails } from './AlarmDetails.js';
import { SavedFilters } from './SavedFilters.js';
import { alarmColumns, alarmQuery, alarmStreamUrl, applyNotices, isAlarmNotice, maxSortKeys, pageSizes, parseView, stateNames, statusNames, viewQuery, type AlarmNotice, type AlarmView } from './view.js';

const rowHeight = 36;
/**
 * Below this width the columns cannot stand side by side: each row becomes a card of three lines (the short columns,
 * then the output, then the rest), so that a phone shows every column without scrolling sideways.
 */
const compactMedia = '(max-width: 700px)';
/** A line of a card, in pixels (the CSS says the same). */
const compactLineHeight = 24;

/** A card's height: the output and what follows it have lines of their own; without them, two lines to wrap into. */
function compactRowHeight(columns: readonly ShownColumn[]): number {
  const output = columns.findIndex((c) => c.id === 'output');
  const lines = output >= 0 && output < columns.length - 1 ? 3 : 2;
  return lines * compactLineHeight + 4;
}

/** Whether rows are shown as cards (`compactMedia`), following the window as it is resized or turned. */
function useCompactRows(): boolean {
  const [compact, setCompact] = useState(() => window.matchMedia(compactMedia).matches);
  useEffect(() => {
    const media = window.matchMedia(compactMedia);
    const follow = () => setCompact(media.matches);
    follow();
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);
  return compact;
}
/** Polling while the live stream is down; once it delivers, a slow read only corrects the order of the page. */
const refreshSeconds = 10;
/**
 * How long the first read of a list waits for its stream to open: read after, the page misses no change made
 * meanwhile. A stream that does not open in time (a proxy holding it back) does not hold the list back longer: the
 * page is read, and read again once the stream opens.
 */
const firstReadWaitMs = 2000;
const liveRefreshSeconds = 120;

interface ShownColumn {
  id: string;
  label: string;
  value: (alarm: Alarm) => string;
  sortable: boolean;
  /** In rem; none: a share of what the others leave. */
  width: number | undefined;
}

/** The least width of a column without its own (the output, plugins' columns), in rem. */
const flexibleColumnRem = 16;
/** The checkbox and row-menu columns, in rem. */
const selectColumnRem = 2;
const menuColumnRem = 2.5;
/** Rows rendered beyond the visible ones on each side: enough for a fast wheel, few enough to keep frames short. */
const overscan = 6;
/** Stream messages kept for the next frame at most (a hidden tab runs none); beyond, the page is read again. */
const maxPendingNotices = 1000;
/** Least time between the starts of two readings of the page the stream asks for (changes of alarms off the page). */
const rereadIntervalMs = 1000;

/**
 * Reads asked for while one runs, or within `minIntervalMs` of the last one's start, make one more read after it,
 * never several: a flood of requests reads at most once per interval, and no read is cancelled by the next.
 */
function coalescedReads(read: () => Promise<unknown>, minIntervalMs: number): { request: () => void; dispose: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reading = false;
  let wanted = false;
  let disposed = false;
  let lastStarted = -Infinity;
  const request = () => {
    wanted = true;
    if (disposed || reading || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      wanted = false;
      reading = true;
      lastStarted = performance.now();
      void read().finally(() => {
        reading = false;
        if (wanted) request();
      });
    }, Math.max(0, lastStarted + minIntervalMs - performance.now()));
  };
  return {
    request,
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
    },
  };
}

function toggle<T>(list: readonly T[], item: T): T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

const Filters = memo(function Filters({ view, update, open }: { view: AlarmView; update: (change: Partial<AlarmView>) => void; open: boolean }) {
  const [search, setSearch] = useState(view.search);
  useEffect(() => setSearch(view.search), [view.search]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update({ search: search.trim() });
  };
  return (
    <form id="alarm-filters" className={`filters${open ? ' open' : ''}`} onSubmit={submit} aria-label="Alarm filters">
      <fieldset>
        <legend>State</legend>
        {stateNames.map((name, value) => (
          <label key={name} className={`chip state-${name}`}>
            <input type="checkbox" checked={view.states.includes(value)} onChange={() => update({ states: toggle(view.states, value) })} />
            {name}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Status</legend>
        {statusNames.map((name, value) => (
          <label key={name} className="chip">
            <input type="checkbox" checked={view.statuses.includes(value)} onChange={() => update({ statuses: toggle(view.statuses, value) })} />
            {name}
          </label>
        ))}
      </fieldset>
      <label>
        Acknowledged
        <select value={view.acked} onChange={(e) => update({ acked: e.target.value as AlarmView['acked'] })}>
          <option value="">either</option>
          <option value="yes">yes</option>
          <option value="no">no</option>
        </select>
      </label>
      <label>
        From
        <input type="datetime-local" value={view.from} onChange={(e) => update({ from: e.target.value })} />
      </label>
      <label>
        To
        <input type="datetime-local" value={view.to} onChange={(e) => update({ to: e.target.value })} />
      </label>
      <label className="search">
        Search
        <input type="search" value={search} maxLength={256} placeholder="entity, output, component…" onChange={(e) => setSearch(e.target.value)} />
      </label>
      <button type="submit">Apply</button>
    </form>
  );
});

function ColumnChooser({ view, columns, update }: { view: AlarmView; columns: ShownColumn[]; update: (change: Partial<AlarmView>) => void }) {
  return (
    <details className="columns">
      <summary>Columns</summary>
      <fieldset>
        <legend className="visually-hidden">Columns shown</legend>
        {columns.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              checked={view.columns.includes(c.id)}
              // At least one column stays.
              disabled={view.columns.length === 1 && view.columns.includes(c.id)}
              onChange={() => update({ columns: toggle(view.columns, c.id) })}
            />
            {c.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

interface AlarmRowProps {
  alarm: Alarm;
  index: number;
  columns: ShownColumn[];
  height: number;
  isOpen: boolean;
  isSelected: boolean;
  isMenuOpen: boolean;
  onOpen: (id: string) => void;
  onSelect: (id: string) => void;
  /** Opens the row's action menu at its button; absent when the user may run no action. */
  onMenu: ((id: string, button: HTMLElement) => void) | undefined;
}

/** One row; memoised, so that scrolling renders only the rows that come into view. */
const AlarmRow = memo(function AlarmRow({ alarm, index, columns, height, isOpen, isSelected, isMenuOpen, onOpen, onSelect, onMenu }: AlarmRowProps) {
  const state = stateNames[alarm.v.state.val as number] ?? 'ok';
  return (
    <tr aria-rowindex={index + 2} className={`row state-${state}${isOpen ? ' open' : ''}${isSelected ? ' selected' : ''}`} style={{ height }}>
      <td className="select">
        <input type="checkbox" aria-label={`Select ${alarm.d}`} checked={isSelected} onChange={() => onSelect(alarm._id)} />
      </td>
      {onMenu && (
        <td className="row-actions">
          <button type="button" className="row-menu-button" aria-label={`Actions on ${alarm.d}`} aria-haspopup="menu" aria-expanded={isMenuOpen} onClick={(e) => onMenu(alarm._id, e.currentTarget)}>
            ⋯
          </button>
        </td>
      )}
      {columns.map((c, column) => (
        <td key={c.id} className={`col-${c.id}`}>
          {column === 0 ? (
            <button type="button" className="link" onClick={() => onOpen(alarm._id)} aria-label={`Details of ${alarm.d}: ${c.value(alarm)}`}>
              {c.value(alarm)}
            </button>
          ) : (
            c.value(alarm)
          )}
        </td>
      ))}
    </tr>
  );
});

interface AlarmRowsProps {
  scroller: RefObject<HTMLDivElement | null>;
  alarms: readonly Alarm[];
  columns: ShownColumn[];
  height: number;
  openId: string;
  selected: ReadonlySet<string>;
  menuOpenId: string | undefined;
  onOpen: (id: string) => void;
  onSelect: (id: string) => void;
  onMenu: ((id: string, button: HTMLElement) => void) | undefined;
}

/**
 * The rows on screen (virtualised). The scroll position is state of this component alone: scrolling renders the body,
 * not the page around it (filters, toolbar, actions), and only the rows that come into view.
 */
const AlarmRows = memo(function AlarmRows({ scroller, alarms, columns, height, openId, selected, menuOpenId, onOpen, onSelect, onMenu }: AlarmRowsProps) {
  const virtualizer = useVirtualizer({ count: alarms.length, getScrollElement: () => scroller.current, estimateSize: () => height, overscan });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const span = columns.length + 1 + (onMenu ? 1 : 0);
  return (
    <tbody>
      {before > 0 && (
        <tr aria-hidden="true">
          <td style={{ height: before }} colSpan={span} />
        </tr>
      )}
      {items.map((item) => {
        const alarm = alarms[item.index] as Alarm;
        return (
          <AlarmRow
            key={alarm._id}
            alarm={alarm}
            index={item.index}
            columns={columns}
            height={height}
            isOpen={openId === alarm._id}
            isSelected={selected.has(alarm._id)}
            isMenuOpen={menuOpenId === alarm._id}
            onOpen={onOpen}
            onSelect={onSelect}
            onMenu={onMenu}
          />
        );
      })}
      {after > 0 && (
        <tr aria-hidden="true">
          <td style={{ height: after }} colSpan={span} />
        </tr>
      )}
    </tbody>
  );
});

export function AlarmList({ extensions }: { extensions: LoadedExtensions }) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const allColumns: ShownColumn[] = useMemo(
    () => [
      ...alarmColumns.map((c) => ({ id: c.id, label: c.label, value: c.value, sortable: c.sortKey !== undefined, width: c.width })),
      ...extensions.columns.map((c) => ({ id: c.key, label: c.label, value: c.render, sortable: false, width: undefined })),
    ],
    [extensions.columns],
  );
  const view = useMemo(() => parseView(search, extensions.columns.map((c) => c.key)), [search, extensions.columns]);
  const update = useCallback(
    (change: Partial<AlarmView>) => {
      // A new filter or sort starts again from the first page.
      const page = 'page' in change ? change.page : 'open' in change || 'columns' in change ? view.page : 1;
      navigate(`${location}${viewQuery({ ...view, ...change, page: page ?? 1 })}`);
    },
    [location, navigate, view],
  );

  const account = useAccount();
  const queryClient = useQueryClient();
  const listKey = useMemo(() => ['alarms', alarmQuery(view)], [view]);
  // Rows change in place as the stream says: no reading of the page for each change. The messages that arrive within
  // one frame are applied together, so that a busy stream renders the list once a frame rather than once a message.
  const pending = useRef<AlarmNotice[]>([]);
  const frame = useRef<number | null>(null);
  const target = useRef({ listKey, firstPage: view.page === 1, size: view.size, open: view.open });
  target.current = { listKey, firstPage: view.page === 1, size: view.size, open: view.open };
  // Changes the page cannot take in place (alarms off this page) make it read again, coalesced: under a flood of
  // them the page is read about once a second instead of a read per frame, each cancelling the one before.
  const rereads = useMemo(() => coalescedReads(() => queryClient.invalidateQueries({ queryKey: target.current.listKey }), rereadIntervalMs), [queryClient]);
  useEffect(() => () => rereads.dispose(), [rereads]);
  // The messages that arrive while the page is being read: the read may have started before them, so they are applied
  // to what it reads too (otherwise the read would put the page back as it was, a new alarm gone before it showed).
  const duringReads = useRef<{ reads: number; notices: AlarmNotice[] }>({ reads: 0, notices: [] });
  // The stream's state, for reads; and whether the page was read before its stream opened (read again at the opening).
  const liveNow = useRef<LiveStatus>('connecting');
  const readBeforeOpen = useRef(false);
  const readPage = useCallback(async (): Promise<AlarmPage> => {
    if (liveNow.current !== 'live') readBeforeOpen.current = true;
    const log = duringReads.current;
    log.reads += 1;
    const from = log.notices.length;
    try {
      const read = await api<AlarmPage>(alarmQuery(view));
      return applyNotices(read, log.notices.slice(from), view.page === 1, view.size).page;
    } finally {
      log.reads -= 1;
      if (log.reads === 0) log.notices = [];
    }
  }, [view]);
  const applyPending = useCallback(() => {
    frame.current = null;
    const notices = pending.current;
    pending.current = [];
    if (notices.length === 0) return;
    const { listKey: key, firstPage, size, open } = target.current;
    if (duringReads.current.reads > 0) duringReads.current.notices.push(...notices);
    const current = queryClient.getQueryData<AlarmPage>(key);
    // A read under way gets these changes applied to what it reads (readPage), but whether its total already counts
    // them cannot be told: one more read follows it.
    const reading = queryClient.isFetching({ queryKey: key }) > 0;
    if (current) {
      const { page: next, complete } = applyNotices(current, notices, firstPage, size);
      if (next !== current) queryClient.setQueryData(key, next);
      if (!complete || reading) rereads.request();
    } else rereads.request();
    if (notices.some((n) => n.alarm._id === open)) void queryClient.invalidateQueries({ queryKey: ['alarm', open] });
  }, [queryClient, rereads]);
  useEffect(() => () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
  }, []);
  const streamUrl = alarmStreamUrl(view);
  // The stream whose opening the list stopped waiting for (firstReadWaitMs).
  const [waitedFor, setWaitedFor] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setWaitedFor(streamUrl), firstReadWaitMs);
    return () => clearTimeout(timer);
  }, [streamUrl]);
  const live = useEventStream(streamUrl, {
    message: (data) => {
      if (!isAlarmNotice(data)) return;
      pending.current.push(data);
      // A hidden tab runs no frames: past a page's worth of waiting messages, reading the page again is cheaper.
      if (pending.current.length > maxPendingNotices) {
        pending.current = [];
        rereads.request();
        return;
      }
      frame.current ??= requestAnimationFrame(applyPending);
    },
    reload: () => {
      readBeforeOpen.current = false;
      void queryClient.invalidateQueries({ queryKey: ['alarms'] });
    },
    open: () => {
      if (!readBeforeOpen.current) return;
      readBeforeOpen.current = false;
      void queryClient.invalidateQueries({ queryKey: target.current.listKey });
    },
  });
  liveNow.current = live;
  const list = useQuery({
    queryKey: listKey,
    queryFn: readPage,
    enabled: live !== 'connecting' || waitedFor === streamUrl,
    placeholderData: keepPreviousData,
    refetchInterval: (live === 'live' ? liveRefreshSeconds : refreshSeconds) * 1000,
  });
  const page = list.data?.data[0];
  const alarms = page?.alarms ?? [];
  const total = page?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / view.size));
  const shown = useMemo(() => view.columns.flatMap((id) => allColumns.find((c) => c.id === id) ?? []), [view.columns, allColumns]);

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // On a phone the filters fold away behind a button (CSS shows the button only there).
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = view.states.length + view.statuses.length + (view.acked ? 1 : 0) + (view.search ? 1 : 0) + (view.from ? 1 : 0) + (view.to ? 1 : 0);
  const [notice, setNotice] = useState('');
  const selectedAlarms = alarms.filter((a) => selected.has(a._id));

  const scroller = useRef<HTMLDivElement>(null);

  const sortBy = (column: string, event: MouseEvent) => {
    const current = view.sort.find((s) => s.column === column);
    const dir = current?.dir === 'desc' ? ('asc' as const) : ('desc' as const);
    // Shift adds the column as a further sort key (up to three); a plain click sorts by it alone.
    if (event.shiftKey) {
      const rest = view.sort.filter((s) => s.column !== column);
      update({ sort: current ? view.sort.map((s) => (s.column === column ? { column, dir } : s)) : [...rest, { column, dir: 'desc' as const }].slice(0, maxSortKeys) });
    } else update({ sort: [{ column, dir }] });
  };

  const openAlarm = useCallback((id: string) => update({ open: id }), [update]);
  // A fixed layout needs room for every column: the columns without a width share what the others leave.
  const compact = useCompactRows();
  const height = compact ? compactRowHeight(shown) : rowHeight;
  const tableWidth = shown.reduce((sum, c) => sum + (c.width ?? flexibleColumnRem), selectColumnRem + menuColumnRem);

  // A row's menu offers the same actions as the selection's (and the plugins'), run on that one alarm by the same code.
  const rowActions = useMemo(
    () => [...allowedActions(account.data).map((a) => ({ key: a.id, label: a.label })), ...extensions.actions.map((a) => ({ key: `extension:${a.key}`, label: a.label }))],
    [account.data, extensions.actions],
  );
  const [menu, setMenu] = useState<{ alarm: Alarm; anchor: HTMLElement } | null>(null);
  const [rowAction, setRowAction] = useState<{ alarm: Alarm; action: ActionId } | null>(null);
  // The rows' callback stays the same while the page changes, so that a live update renders only the changed row.
  const alarmsNow = useRef(alarms);
  alarmsNow.current = alarms;
  const openMenu = useCallback((id: string, anchor: HTMLElement) => {
    const alarm = alarmsNow.current.find((a) => a._id === id);
    setMenu((current) => (current?.alarm._id === id || !alarm ? null : { alarm, anchor }));
  }, []);
  const closeMenu = useCallback(() => setMenu(null), []);
  const chooseRowAction = (key: string) => {
    if (!menu) return;
    const { alarm } = menu;
    setMenu(null);
    const extension = extensions.actions.find((a) => `extension:${a.key}` === key);
    if (extension) void runAction(extension.run, [alarm]);
    else setRowAction({ alarm, action: key as ActionId });
  };
  const selectAlarm = useCallback((id: string) => setSelected((s) => new Set(toggle([...s], id))), []);

  const runAction = async (run: (alarms: Alarm[]) => Promise<string>, on: Alarm[]) => {
    try {
      setNotice(await run(on));
    } catch (err) {
      setNotice(`The action failed: ${(err as Error).message}`);
    }
  };

  return (
    <div className={`alarms${view.open ? ' with-details' : ''}`}>
      <main id="main" className="alarm-main">
        <h1 className="visually-hidden">Alarms</h1>
        <button type="button" className="filters-toggle" aria-expanded={filtersOpen} aria-controls="alarm-filters" onClick={() => setFiltersOpen((o) => !o)}>
          Filters{activeFilters > 0 ? ` (${activeFilters})` : ''}
        </button>
        <Filters view={view} update={update} open={filtersOpen} />
        <div className="toolbar">
          <ColumnChooser view={view} columns={allColumns} update={update} />
          <SavedFilters currentQuery={viewQuery({ ...view, open: '', page: 1 }).replace(/^\?/, '')} />
          <p className="count" aria-live="polite">
            {list.isPending ? 'Loading alarms…' : `${total} alarm${total === 1 ? '' : 's'}`}
            {list.isFetching && !list.isPending ? ' · refreshing' : ''}
          </p>
          <p className={`live live-${live}`} aria-live="polite">
            {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
          </p>
          {extensions.actions.length > 0 && (
            <div className="actions" role="group" aria-label="Actions on the selected alarms">
              {extensions.actions.map((a) => (
                <button key={a.key} type="button" disabled={selectedAlarms.length === 0} onClick={() => void runAction(a.run, selectedAlarms)}>
                  {a.label}
                </button>
              ))}
            </div>
          )}
        </div>
        {rowAction ? (
          <AlarmActions
            key={`${rowAction.alarm._id} ${rowAction.action}`}
            alarms={[rowAction.alarm]}
            account={account.data}
            label={`Actions on ${rowAction.alarm.d}`}
            summary={rowAction.alarm.d}
            initialAction={rowAction.action}
            onReport={setNotice}
            onClose={() => setRowAction(null)}
          />
        ) : (
          <AlarmActions
            alarms={selectedAlarms}
            account={account.data}
            label={`Actions on the ${selectedAlarms.length} selected alarm${selectedAlarms.length === 1 ? '' : 's'}`}
            summary={selectedAlarms.length === 0 ? 'Select alarms to act on them' : `${selectedAlarms.length} selected`}
            onReport={setNotice}
          />
        )}
        {menu && <RowActionMenu anchor={menu.anchor} label={`Actions on ${menu.alarm.d}`} items={rowActions} onChoose={chooseRowAction} onClose={closeMenu} />}
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {list.isError && (
          <p className="error" role="alert">
            The alarms could not be read: {list.error.message}
          </p>
        )}
        <div className="table-scroll" ref={scroller} tabIndex={0} aria-label="Alarm list, scrollable">
          <table className={compact ? 'alarm-table compact' : 'alarm-table'} aria-rowcount={alarms.length + 1} style={compact ? undefined : { minWidth: `${tableWidth}rem` }}>
            <colgroup>
              <col style={{ width: `${selectColumnRem}rem` }} />
              {rowActions.length > 0 && <col style={{ width: `${menuColumnRem}rem` }} />}
              {shown.map((c) => (
                <col key={c.id} style={c.width === undefined ? undefined : { width: `${c.width}rem` }} />
              ))}
            </colgroup>
            <thead>
              <tr>
                <th scope="col" className="select">
                  <input
                    type="checkbox"
                    aria-label="Select every alarm of the page"
                    checked={alarms.length > 0 && selectedAlarms.length === alarms.length}
                    onChange={(e) => setSelected(e.target.checked ? new Set(alarms.map((a) => a._id)) : new Set())}
                  />
                </th>
                {rowActions.length > 0 && (
                  <th scope="col" className="row-actions">
                    <span className="visually-hidden">Row actions</span>
                  </th>
                )}
                {shown.map((c) => {
                  const rank = view.sort.findIndex((s) => s.column === c.id);
                  const sort = view.sort[rank];
                  return (
                    <th key={c.id} scope="col" aria-sort={rank === 0 && sort ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined} className={`col-${c.id}`}>
                      {c.sortable ? (
                        <button type="button" className="sort" onClick={(e) => sortBy(c.id, e)} title="Sort (shift: add a sort key)">
                          {c.label}
                          {sort && <span aria-label={`sorted ${sort.dir === 'asc' ? 'ascending' : 'descending'}, key ${rank + 1}`}>{` ${sort.dir === 'asc' ? '▲' : '▼'}${view.sort.length > 1 ? rank + 1 : ''}`}</span>}
                        </button>
                      ) : (
                        c.label
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <AlarmRows
              // Measured again from scratch when the rows change height.
              key={height}
              scroller={scroller}
              alarms={alarms}
              columns={shown}
              height={height}
              openId={view.open}
              selected={selected}
              menuOpenId={menu?.alarm._id}
              onOpen={openAlarm}
              onSelect={selectAlarm}
              onMenu={rowActions.length > 0 ? openMenu : undefined}
            />
          </table>
          {!list.isPending && alarms.length === 0 && <p className="empty">No alarm matches this view.</p>}
        </div>
        <nav className="pager" aria-label="Pages">
          <button type="button" disabled={view.page <= 1} onClick={() => update({ page: view.page - 1 })}>
            Previous
          </button>
          <span>
            Page {view.page} of {pages}
          </span>
          <button type="button" disabled={view.page >= pages} onClick={() => update({ page: view.page + 1 })}>
            Next
          </button>
          <label>
            Per page
            <select value={view.size} onChange={(e) => update({ size: Number(e.target.value) })}>
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
        </nav>
      </main>
      {view.open && <AlarmDetails id={view.open} account={account.data} onClose={() => update({ open: '' })} onReport={setNotice} />}
    </div>
  );
}
