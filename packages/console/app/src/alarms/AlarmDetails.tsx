import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, type Account, type Alarm } from '../api.js';
import { AlarmActions } from './AlarmActions.js';
import { stateNames, statusNames } from './view.js';

const stepsPerPage = 50;
const time = (epoch: number) => new Date(epoch * 1000).toLocaleString();

function stepValue(type: string, val: unknown): string {
  if (val === undefined || val === null) return '';
  if (type.startsWith('state')) return stateNames[Number(val)] ?? String(val);
  if (type.startsWith('status')) return statusNames[Number(val)] ?? String(val);
  return String(val);
}

/** One alarm: its main fields, its timeline (newest first) and its entity. Escape or the button closes it. */
export function AlarmDetails({ id, account, onClose, onReport }: { id: string; account: Account | undefined; onClose: () => void; onReport: (message: string) => void }) {
  const alarm = useQuery({ queryKey: ['alarm', id], queryFn: () => api<Alarm>(`/api/v2/alarms/${encodeURIComponent(id)}`) });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id, onClose]);

  const a = alarm.data;
  const steps = [...(a?.v.steps ?? [])].reverse().slice(0, stepsPerPage);
  return (
    <aside className="details" aria-labelledby="details-title">
      <div className="details-head">
        <h2 id="details-title" ref={heading} tabIndex={-1}>
          {a ? a.d : 'Alarm'}
        </h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {alarm.isPending && <p>Loading…</p>}
      {alarm.isError && <p role="alert">{alarm.error.message}</p>}
      {a && (
        <>
          <dl className="fields">
            <dt>State</dt>
            <dd className={`state-${stateNames[a.v.state.val as number] ?? 'ok'}`}>{stepValue('state', a.v.state.val)}</dd>
            <dt>Status</dt>
            <dd>{stepValue('status', a.v.status.val)}</dd>
            <dt>Output</dt>
            <dd>{a.v.output}</dd>
            <dt>Created</dt>
            <dd>{time(a.v.creation_date)}</dd>
            <dt>Connector</dt>
            <dd>
              {a.v.connector}/{a.v.connector_name}
            </dd>
          </dl>
          <AlarmActions alarms={[a]} account={account} label="Actions on this alarm" onReport={onReport} />
          <h3>Timeline</h3>
          <ol className="timeline">
            {steps.map((step, index) => (
              <li key={`${step.t}-${index}`}>
                <time dateTime={new Date(step.t * 1000).toISOString()}>{time(step.t)}</time> <strong>{step._t}</strong> {stepValue(step._t, step.val)}
                {step.a && <span className="muted"> by {step.a}</span>}
                {step.m && <div className="muted">{step.m}</div>}
              </li>
            ))}
          </ol>
          {(a.v.steps?.length ?? 0) > stepsPerPage && <p className="muted">The {stepsPerPage} newest of {a.v.steps?.length} steps.</p>}
          <h3>Entity</h3>
          {a.entity ? (
            <dl className="fields">
              {Object.entries(a.entity)
                .filter(([, value]) => typeof value !== 'object' || value === null)
                .map(([key, value]) => (
                  <div key={key}>
                    <dt>{key}</dt>
                    <dd>{String(value)}</dd>
                  </div>
                ))}
            </dl>
          ) : (
            <p>The entity is gone.</p>
          )}
        </>
      )}
    </aside>
  );
}
