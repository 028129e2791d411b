import type { EventClickArg, EventSourceFuncArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api } from '../api.js';
import { failure } from '../ui.js';
import { fromRRule, localDateTime, noRecurrence, toRRule, weekDays, type Recurrence } from './rrule.js';

interface Timespan {
  pbehavior: { _id: string; name: string; type_: string; reason: string };
  start: number;
  end: number;
  active: boolean;
}

interface Pbehavior {
  _id: string;
  name: string;
  author?: string;
  filter: string;
  tstart: number;
  tstop: number;
  rrule: string | null;
  type_: string;
  reason: string;
  timezone: string;
  exdate: number[];
}

interface PreviewAnswer {
  count: number;
  active_now: boolean;
  next_occurrences: { start: number; end: number }[];
}

/** The user's time zone: the calendar shows and the editor reads local times in it. */
const userZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const epoch = (local: string) => Math.floor(new Date(local).getTime() / 1000);
const when = (seconds: number) => new Date(seconds * 1000).toLocaleString();

interface Draft {
  id: string | null;
  name: string;
  reason: string;
  type: string;
  filter: string;
  start: string;
  end: string;
  recurrence: Recurrence;
  exceptions: string[];
}

function newDraft(): Draft {
  const start = new Date();
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  const end = new Date(start.getTime() + 2 * 3600_000);
  return { id: null, name: '', reason: '', type: 'maintenance', filter: '{"component": ""}', start: localDateTime(start), end: localDateTime(end), recurrence: noRecurrence, exceptions: [] };
}

function draftOf(p: Pbehavior): Draft {
  return {
    id: p._id,
    name: p.name,
    reason: p.reason,
    type: p.type_,
    filter: p.filter,
    start: localDateTime(new Date(p.tstart * 1000)),
    end: localDateTime(new Date(p.tstop * 1000)),
    recurrence: fromRRule(p.rrule),
    exceptions: p.exdate.map((s) => localDateTime(new Date(s * 1000))),
  };
}

/** The request body for a draft; throws a message when the filter is not JSON. */
function bodyOf(d: Draft): Record<string, unknown> {
  let filter: unknown;
  try {
    filter = JSON.parse(d.filter);
  } catch {
    throw new Error('The filter is not valid JSON');
  }
  return {
    name: d.name,
    reason: d.reason,
    type_: d.type,
    filter,
    tstart: epoch(d.start),
    tstop: epoch(d.end),
    rrule: toRRule(d.recurrence),
    timezone: userZone,
    exdate: d.exceptions.filter(Boolean).map(epoch),
  };
}

function Editor({ initial, writable, onDone }: { initial: Draft; writable: boolean; onDone: (saved: boolean) => void }) {
  const [d, setD] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (patch: Partial<Draft>) => setD({ ...d, ...patch });
  const setR = (patch: Partial<Recurrence>) => set({ recurrence: { ...d.recurrence, ...patch } });
  const preview = useMutation({ mutationFn: () => api<PreviewAnswer>('/api/v2/pbehavior/preview?limit=5', { method: 'POST', body: JSON.stringify(bodyOf(d)) }) });
  const save = useMutation({
    mutationFn: () => (d.id ? api(`/api/v2/pbehavior/${encodeURIComponent(d.id)}`, { method: 'PUT', body: JSON.stringify(bodyOf(d)) }) : api('/api/v2/pbehavior', { method: 'POST', body: JSON.stringify(bodyOf(d)) })),
    onSuccess: () => onDone(true),
    onError: (e) => setProblem(failure(e)),
  });
  const remove = useMutation({ mutationFn: () => api(`/api/v2/pbehavior/${encodeURIComponent(d.id ?? '')}`, { method: 'DELETE' }), onSuccess: () => onDone(true), onError: (e) => setProblem(failure(e)) });
  const rule = toRRule(d.recurrence);
  return (
    <section className="editor pbh-editor" aria-labelledby="pbh-title">
      <h2 id="pbh-title">{d.id ? `Maintenance ${d.name}` : 'New maintenance'}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setProblem(null);
          save.mutate();
        }}
      >
        <fieldset disabled={!writable}>
          <div className="grid-form">
            <label>
              Name <input required value={d.name} onChange={(e) => set({ name: e.target.value })} />
            </label>
            <label>
              Type <input value={d.type} onChange={(e) => set({ type: e.target.value })} />
            </label>
            <label>
              Reason <input value={d.reason} onChange={(e) => set({ reason: e.target.value })} />
            </label>
            <label>
              Starts ({userZone}) <input type="datetime-local" required value={d.start} onChange={(e) => set({ start: e.target.value })} />
            </label>
            <label>
              Ends ({userZone}) <input type="datetime-local" required value={d.end} onChange={(e) => set({ end: e.target.value })} />
            </label>
            <label className="wide">
              Entities (a filter as JSON) <textarea rows={2} spellCheck={false} value={d.filter} onChange={(e) => set({ filter: e.target.value })} />
            </label>
          </div>
          <fieldset className="rrule">
            <legend>Repeats</legend>
            <label>
              Frequency
              <select value={d.recurrence.freq} onChange={(e) => setR({ freq: e.target.value as Recurrence['freq'] })}>
                <option value="">never (a single window)</option>
                <option value="DAILY">daily</option>
                <option value="WEEKLY">weekly</option>
                <option value="MONTHLY">monthly</option>
                <option value="YEARLY">yearly</option>
              </select>
            </label>
            {d.recurrence.freq !== '' && (
              <>
                <label>
                  Every <input type="number" min={1} max={999} value={d.recurrence.interval} onChange={(e) => setR({ interval: Math.max(1, Number(e.target.value) || 1) })} />
                </label>
                {d.recurrence.freq === 'WEEKLY' && (
                  <fieldset className="days">
                    <legend>On</legend>
                    {weekDays.map((day) => (
                      <label key={day} className="chip">
                        <input
                          type="checkbox"
                          checked={d.recurrence.days.includes(day)}
                          onChange={(e) => setR({ days: e.target.checked ? [...d.recurrence.days, day] : d.recurrence.days.filter((x) => x !== day) })}
                        />
                        {day}
                      </label>
                    ))}
                  </fieldset>
                )}
                <label>
                  Repeats until
                  <select value={d.recurrence.end} onChange={(e) => setR({ end: e.target.value as Recurrence['end'] })}>
                    <option value="never">never</option>
                    <option value="until">on a date</option>
                    <option value="count">after a number of times</option>
                  </select>
                </label>
                {d.recurrence.end === 'until' && (
                  <label>
                    Last day <input type="date" value={d.recurrence.until} onChange={(e) => setR({ until: e.target.value })} />
                  </label>
                )}
                {d.recurrence.end === 'count' && (
                  <label>
                    Times <input type="number" min={1} max={10000} value={d.recurrence.count} onChange={(e) => setR({ count: Math.max(1, Number(e.target.value) || 1) })} />
                  </label>
                )}
                <p className="muted">
                  Rule: <code>{rule}</code>
                </p>
                <fieldset className="exceptions">
                  <legend>Exceptions (occurrences skipped)</legend>
                  {d.exceptions.map((x, i) => (
                    <span key={i} className="exception">
                      <input
                        type="datetime-local"
                        aria-label={`Exception ${i + 1}`}
                        value={x}
                        onChange={(e) => set({ exceptions: d.exceptions.map((y, j) => (j === i ? e.target.value : y)) })}
                      />
                      <button type="button" onClick={() => set({ exceptions: d.exceptions.filter((_, j) => j !== i) })} aria-label={`Remove exception ${i + 1}`}>
                        Remove
                      </button>
                    </span>
                  ))}
                  <button type="button" onClick={() => set({ exceptions: [...d.exceptions, d.start] })}>
                    Add an exception
                  </button>
                </fieldset>
              </>
            )}
          </fieldset>
        </fieldset>
        {problem && (
          <p role="alert" className="error">
            {problem}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={() => preview.mutate()} disabled={preview.isPending}>
            Preview
          </button>
          {writable && (
            <button type="submit" className="button primary" disabled={save.isPending}>
              Save
            </button>
          )}
          {writable && d.id && (
            <button type="button" onClick={() => window.confirm(`Delete ${d.name}?`) && remove.mutate()}>
              Delete
            </button>
          )}
          <button type="button" onClick={() => onDone(false)}>
            Close
          </button>
        </div>
      </form>
      {preview.isError && <p className="error">{failure(preview.error)}</p>}
      {preview.data && (
        <div role="status" className="preview">
          <p>
            Pauses <strong>{preview.data.count}</strong> entities{preview.data.active_now ? ', and is in force now' : ''}. Next occurrences:
          </p>
          <ol className="occurrences">
            {preview.data.next_occurrences.map((o) => (
              <li key={o.start}>
                {when(o.start)} → {when(o.end)}
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

/** Maintenance windows (pbehaviors) on a week or month view, in the user's time zone, with their editor. */
export default function Calendar({ writable }: { writable: boolean }) {
  const calendar = useRef<FullCalendar>(null);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Draft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const events = (info: EventSourceFuncArg, success: (events: EventInput[]) => void, fail: (error: Error) => void) => {
    const from = Math.floor(info.start.getTime() / 1000);
    const to = Math.floor(info.end.getTime() / 1000);
    api<{ timespans: Timespan[] }>(`/api/v2/pbehavior-timespans?from=${from}&to=${to}&timezone=${encodeURIComponent(userZone)}`)
      .then((answer) => {
        setProblem(null);
        success(
          answer.timespans.map((t) => ({
            id: `${t.pbehavior._id}@${t.start}`,
            groupId: t.pbehavior._id,
            title: t.pbehavior.name,
            start: t.start * 1000,
            end: t.end * 1000,
            classNames: t.active ? ['pbh-active'] : [],
            extendedProps: { pbehavior: t.pbehavior._id },
          })),
        );
      })
      .catch((error: unknown) => {
        setProblem(error instanceof Error ? error.message : String(error));
        fail(error instanceof Error ? error : new Error(String(error)));
      });
  };

  const open = async (arg: EventClickArg) => {
    arg.jsEvent.preventDefault();
    const id = String(arg.event.extendedProps.pbehavior);
    const all = await queryClient.fetchQuery({ queryKey: ['pbehaviors'], queryFn: () => api<Pbehavior[]>('/api/v2/pbehavior'), staleTime: 0 });
    const found = all.find((p) => p._id === id);
    if (found) setEditing(draftOf(found));
  };

  return (
    <main id="main" className="page admin calendar-page">
      <h1>Maintenance calendar</h1>
      <div className="toolbar">
        {writable && (
          <button type="button" className="button primary" onClick={() => setEditing(newDraft())}>
            New maintenance
          </button>
        )}
        <p className="count">Times in {userZone}.</p>
      </div>
      {problem && <p role="alert" className="error">{problem}</p>}
      {editing && (
        <Editor
          key={editing.id ?? 'new'}
          initial={editing}
          writable={writable}
          onDone={(saved) => {
            setEditing(null);
            if (saved) calendar.current?.getApi().refetchEvents();
          }}
        />
      )}
      <FullCalendar
        ref={calendar}
        plugins={[timeGridPlugin, dayGridPlugin]}
        initialView="timeGridWeek"
        headerToolbar={{ left: 'prev,next today', center: 'title', right: 'timeGridWeek,dayGridMonth' }}
        // Text buttons: FullCalendar's icon font is an inline data URL, which the console's CSP refuses, and its icons have no text alternative.
        buttonIcons={false}
        buttonText={{ prev: 'Previous', next: 'Next', today: 'Today', week: 'Week', month: 'Month' }}
        firstDay={1}
        nowIndicator
        // The whole day without an inner scroll area (which a keyboard could not reach).
        height="auto"
        // Re-laid out as soon as the window changes size (a phone turned, a window narrowed), not 100 ms later.
        windowResizeDelay={0}
        events={events}
        eventClick={(arg) => void open(arg)}
      />
    </main>
  );
}
