import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, bulk, holds, type Account, type Alarm, type BulkItemResult } from '../api.js';
import { stateNames } from './view.js';

/** The alarm actions of `PUT /api/v2/bulk/alarms/<action>`, and maintenance (`POST /api/v2/bulk/entity-pbehaviors`). */
export type ActionId = 'ack' | 'ackremove' | 'snooze' | 'unsnooze' | 'cancel' | 'uncancel' | 'changestate' | 'assocticket' | 'comment' | 'done' | 'maintenance';

export interface ActionSpec {
  id: ActionId;
  label: string;
  /** How the report words a success: "4 acknowledged". */
  past: string;
  /** The right the server asks for it: the button is hidden from others. */
  right: string;
  /** What it does, shown at the top of its form. */
  help: string;
}

const actions: readonly ActionSpec[] = [
  { id: 'ack', label: 'Acknowledge', past: 'acknowledged', right: 'alarms:ack', help: 'Says someone is on it; the alarm stays open.' },
  { id: 'ackremove', label: 'Remove ack', past: 'no longer acknowledged', right: 'alarms:ack', help: 'Withdraws the acknowledgement.' },
  { id: 'snooze', label: 'Snooze', past: 'snoozed', right: 'alarms:write', help: 'Puts the alarm aside for a while; it wakes up by itself at the end (or when unsnoozed).' },
  { id: 'unsnooze', label: 'Unsnooze', past: 'unsnoozed', right: 'alarms:write', help: 'Ends the snooze now.' },
  { id: 'cancel', label: 'Cancel alarm', past: 'cancelled', right: 'alarms:write', help: "Marks the alarm as cancelled; it is resolved after the server's cancel delay (1 hour by default) unless uncancelled." },
  { id: 'uncancel', label: 'Uncancel', past: 'uncancelled', right: 'alarms:write', help: 'Takes the cancellation back.' },
  { id: 'changestate', label: 'Change state', past: 'changed state', right: 'alarms:write', help: 'Sets the state by hand: later checks keep it until one says OK.' },
  { id: 'assocticket', label: 'Ticket', past: 'ticketed', right: 'alarms:write', help: 'Records the ticket opened for the alarm elsewhere.' },
  { id: 'comment', label: 'Comment', past: 'commented', right: 'alarms:write', help: "Adds a comment to the alarm's timeline." },
  { id: 'done', label: 'Done', past: 'marked done', right: 'alarms:write', help: "Marks the work as done; the alarm is resolved after the server's done delay (15 minutes by default)." },
  { id: 'maintenance', label: 'Maintenance', past: 'put into maintenance', right: 'pbehaviors:write', help: "Puts each alarm's entity under a maintenance period from now: no notifications, and the weather shows it." },
];

const durationUnits = [
  ['m', 'minutes'],
  ['h', 'hours'],
  ['d', 'days'],
  ['w', 'weeks'],
] as const;

/** The actions a user may run: the server checks again, this only spares them buttons that would answer 403. */
export function allowedActions(account: Account | undefined): readonly ActionSpec[] {
  return actions.filter((a) => holds(account, a.right));
}

/** "4 acknowledged, 1 failed: db-1/disk — Cannot ack alarm …", naming each failed alarm. */
export function bulkReport(past: string, results: readonly BulkItemResult[], nameOf: (id: string) => string): string {
  const failed = results.filter((r) => r.status >= 300);
  const succeeded = results.length - failed.length;
  const failures = failed.map((r) => `${nameOf(r.id)} — ${r.error ?? `status ${r.status}`}`).join('; ');
  return failed.length === 0 ? `${succeeded} ${past}` : `${succeeded} ${past}, ${failed.length} failed: ${failures}`;
}

interface Fields {
  comment: string;
  durationValue: string;
  durationUnit: string;
  state: string;
  ticket: string;
  ticketUrl: string;
  maintenanceName: string;
  maintenanceType: string;
  reason: string;
  ackResources: boolean;
}

const emptyFields: Fields = {
  comment: '',
  durationValue: '1',
  durationUnit: 'h',
  state: '3',
  ticket: '',
  ticketUrl: '',
  maintenanceName: 'Maintenance from the console',
  // The type names the weather tiles know: `Maintenance` shows the maintenance icon, `pause` (any case) the pause.
  maintenanceType: 'Maintenance',
  reason: '',
  ackResources: false,
};

/** The body of one alarm action, from the form. */
function actionBody(action: ActionId, f: Fields): Record<string, unknown> {
  const comment = f.comment.trim() ? { comment: f.comment.trim() } : {};
  const duration = { value: Number(f.durationValue), unit: f.durationUnit };
  switch (action) {
    case 'ack':
      return { ...comment, ...(f.ackResources ? { ack_resources: true } : {}) };
    case 'snooze':
      return { ...comment, duration };
    case 'changestate':
      return { ...comment, state: Number(f.state) };
    case 'assocticket':
      return { ...comment, ticket: f.ticket.trim(), ...(f.ticketUrl.trim() ? { url: f.ticketUrl.trim() } : {}) };
    default:
      return comment;
  }
}

/**
 * The actions on some alarms (the selection, or the alarm whose details are open): a button per action the user
 * holds the right for, then a short form for its fields, sent through the bulk route so that each alarm's success or
 * failure is reported.
 */
export function AlarmActions({
  alarms,
  account,
  label,
  summary,
  initialAction,
  onReport,
  onClose,
}: {
  alarms: readonly Alarm[];
  account: Account | undefined;
  label: string;
  /** Shown before the buttons (the size of the selection). */
  summary?: string;
  /** The action whose form is open at first (chosen from a row's menu). */
  initialAction?: ActionId;
  onReport: (message: string) => void;
  /** Called when the form is sent or left: a row's action goes away then. */
  onClose?: () => void;
}) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<ActionSpec | null>(() => actions.find((a) => a.id === initialAction) ?? null);
  const [fields, setFields] = useState<Fields>(emptyFields);
  const [busy, setBusy] = useState(false);
  const helpId = useId();
  const form = useRef<HTMLFormElement>(null);
  // A form opened from a row's menu takes the focus, so the keyboard goes on where the menu was.
  useEffect(() => {
    if (initialAction) form.current?.querySelector<HTMLElement>('input, select, button[type="submit"]')?.focus();
  }, [initialAction]);
  const allowed = allowedActions(account);
  if (allowed.length === 0) return null;
  // Nothing selected: the buttons would all be disabled; a line says how to get them.
  if (alarms.length === 0) return summary ? <p className="alarm-actions selection-count">{summary}</p> : null;

  const set = (name: keyof Fields) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: event.target.value }));
  const names = new Map(alarms.map((a) => [a._id, a.d]));

  const close = () => {
    setChosen(null);
    onClose?.();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || alarms.length === 0) return;
    setBusy(true);
    try {
      let results: BulkItemResult[];
      if (chosen.id === 'maintenance') {
        // One pbehavior per entity, however many of its alarms are selected.
        const entities = [...new Set(alarms.map((a) => a.d))];
        const duration = fields.durationValue.trim() ? { duration: { value: Number(fields.durationValue), unit: fields.durationUnit } } : {};
        results = await bulk(
          'POST',
          '/api/v2/bulk/entity-pbehaviors',
          entities.map((entity) => ({
            entity,
            name: fields.maintenanceName.trim(),
            type: fields.maintenanceType,
            ...(fields.reason.trim() ? { reason: fields.reason.trim() } : {}),
            ...(fields.comment.trim() ? { comment: fields.comment.trim() } : {}),
            ...duration,
          })),
        );
        // A created pbehavior reports its new id: name the entities by position instead.
        results = results.map((r, index) => ({ ...r, id: r.status >= 300 ? (entities[index] ?? r.id) : r.id }));
      } else {
        const body = actionBody(chosen.id, fields);
        results = await bulk('PUT', `/api/v2/bulk/alarms/${chosen.id}`, alarms.map((a) => ({ _id: a._id, ...body })));
      }
      onReport(bulkReport(chosen.past, results, (id) => names.get(id) ?? id));
      close();
      setFields(emptyFields);
    } catch (err) {
      onReport(`The action failed: ${err instanceof ApiError ? `${err.description} (${err.status})` : (err as Error).message}`);
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: ['alarms'] });
      void queryClient.invalidateQueries({ queryKey: ['alarm'] });
    }
  };

  const needsDuration = chosen?.id === 'snooze' || chosen?.id === 'maintenance';
  const count = `${alarms.length} alarm${alarms.length === 1 ? '' : 's'}`;
  return (
    <div className="alarm-actions">
      <div className="actions" role="group" aria-label={label}>
        {summary && <span className="selection-count">{summary}</span>}
        {allowed.map((a) => (
          <button key={a.id} type="button" aria-pressed={chosen?.id === a.id} onClick={() => setChosen(chosen?.id === a.id ? null : a)}>
            {a.label}
          </button>
        ))}
      </div>
      {chosen && (
        <form ref={form} className="action-form" onSubmit={(e) => void submit(e)} aria-label={`${chosen.label}: ${count}`} aria-describedby={helpId}>
          <p className="action-help" id={helpId}>
            {chosen.help}
          </p>
          {chosen.id === 'maintenance' && (
            <>
              <label>
                Name
                <input required maxLength={255} value={fields.maintenanceName} onChange={set('maintenanceName')} />
              </label>
              <label>
                Type
                <select value={fields.maintenanceType} onChange={set('maintenanceType')}>
                  <option value="Maintenance">Maintenance</option>
                  <option value="Pause">Pause</option>
                </select>
              </label>
              <label>
                Reason
                <input maxLength={255} value={fields.reason} onChange={set('reason')} />
              </label>
            </>
          )}
          {needsDuration && (
            <>
              <label>
                {chosen.id === 'snooze' ? 'Duration' : 'Duration (empty: until removed)'}
                <input type="number" min={1} required={chosen.id === 'snooze'} value={fields.durationValue} onChange={set('durationValue')} />
              </label>
              <label>
                Unit
                <select value={fields.durationUnit} onChange={set('durationUnit')}>
                  {durationUnits.map(([unit, name]) => (
                    <option key={unit} value={unit}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            </>
          )}
          {chosen.id === 'ack' && alarms.some((a) => !a.v.resource) && (
            <label className="check">
              <input type="checkbox" checked={fields.ackResources} onChange={(e) => setFields((f) => ({ ...f, ackResources: e.target.checked }))} />
              With the alarms of the component&apos;s resources
            </label>
          )}
          {chosen.id === 'changestate' && (
            <label>
              New state
              <select value={fields.state} onChange={set('state')}>
                {stateNames.map((name, value) => (
                  <option key={name} value={value}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {chosen.id === 'assocticket' && (
            <>
              <label>
                Ticket
                <input required maxLength={255} value={fields.ticket} onChange={set('ticket')} />
              </label>
              <label>
                Ticket URL
                <input type="url" maxLength={255} value={fields.ticketUrl} onChange={set('ticketUrl')} />
              </label>
            </>
          )}
          <label className="grow">
            {chosen.id === 'comment' ? 'Comment' : 'Comment (optional, kept in the timeline)'}
            <input required={chosen.id === 'comment'} maxLength={255} value={fields.comment} onChange={set('comment')} />
          </label>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Working…' : `${chosen.label}: ${count}`}
          </button>
          <button type="button" onClick={close}>
            Back
          </button>
        </form>
      )}
    </div>
  );
}
