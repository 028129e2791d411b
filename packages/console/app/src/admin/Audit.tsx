import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.js';
import { Pager, ScrollTable } from '../ui.js';

interface AuditRecord {
  _id: string;
  at: number;
  user: { id: string; name: string; via: string };
  method: string;
  path: string;
  right?: string;
  outcome: 'pending' | 'done' | 'failed' | 'refused';
  status?: number;
  clientAddress?: string;
  /** On the record of a minute of a tallied route (the event intake): its requests, and those that failed. */
  requests?: number;
  failed?: number;
}

/** What a minute's record of a tallied route (the event intake) counts, in words. */
function tallyText({ requests = 0, failed = 0, outcome }: AuditRecord): string {
  const counted = `${requests} request${requests === 1 ? '' : 's'} in this minute`;
  // Refused records count refusals only: their outcome already says so.
  return failed > 0 && outcome !== 'refused' ? `${counted}, ${failed} failed` : counted;
}

interface AuditPage {
  data: AuditRecord[];
  meta: { page: number; per_page: number; page_count: number; total_count: number };
}

interface Filters {
  user: string;
  method: string;
  resource: string;
  outcome: string;
  from: string;
  to: string;
}

const empty: Filters = { user: '', method: '', resource: '', outcome: '', from: '', to: '' };
const perPage = 50;

/** `from`/`to` of the route are epoch seconds; the inputs are local date-times. */
const seconds = (local: string) => String(Math.floor(new Date(local).getTime() / 1000));

function query(filters: Filters, page: number): string {
  const params = new URLSearchParams({ page: String(page), limit: String(perPage) });
  for (const key of ['user', 'method', 'resource', 'outcome'] as const) if (filters[key]) params.set(key, filters[key]);
  if (filters.from) params.set('from', seconds(filters.from));
  if (filters.to) params.set('to', seconds(filters.to));
  return params.toString();
}

/** The audit log: every write, who made it, how it ended; newest first, filtered and paged by the server. */
export default function Audit() {
  const [draft, setDraft] = useState<Filters>(empty);
  const [filters, setFilters] = useState<Filters>(empty);
  const [page, setPage] = useState(1);
  const records = useQuery({ queryKey: ['audit', filters, page], queryFn: () => api<AuditPage>(`/api/v2/audit?${query(filters, page)}`), placeholderData: keepPreviousData });
  const set = (key: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value });
  return (
    <main id="main" className="page admin">
      <h1>Audit log</h1>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(draft);
          setPage(1);
        }}
      >
        <label>
          User <input type="search" value={draft.user} onChange={set('user')} />
        </label>
        <label>
          Method
          <select value={draft.method} onChange={set('method')}>
            <option value="">any</option>
            {['POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Path contains <input type="search" value={draft.resource} onChange={set('resource')} />
        </label>
        <label>
          Outcome
          <select value={draft.outcome} onChange={set('outcome')}>
            <option value="">any</option>
            {['done', 'failed', 'pending', 'refused'].map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          From <input type="datetime-local" value={draft.from} onChange={set('from')} />
        </label>
        <label>
          To <input type="datetime-local" value={draft.to} onChange={set('to')} />
        </label>
        <button type="submit">Apply</button>
      </form>
      <p className="count" role="status">
        {records.data ? `${records.data.meta.total_count} records` : ''}
      </p>
      {records.isError && <p role="alert" className="error">{records.error.message}</p>}
      {records.data && (
        <ScrollTable label="Audit records" className="audit" columns={['When', 'User', 'Request', 'Right', 'Outcome', 'From']}>
          {records.data.data.map((r) => (
            <tr key={r._id}>
              <td>{new Date(r.at).toLocaleString()}</td>
              <td>
                {r.user.name}
                {r.user.via && <span className="muted"> ({r.user.via})</span>}
              </td>
              <th scope="row">
                {r.method} {r.path}
                {r.requests !== undefined && <span className="muted">{` · ${tallyText(r)}`}</span>}
              </th>
              <td>{r.right ?? ''}</td>
              <td className={r.outcome === 'failed' ? 'bad-text' : undefined}>
                {r.outcome}
                {r.status ? ` (${r.status})` : ''}
              </td>
              <td>{r.clientAddress ?? ''}</td>
            </tr>
          ))}
        </ScrollTable>
      )}
      {records.data && <Pager label="Audit pages" page={page} pageCount={records.data.meta.page_count} onPage={setPage} />}
    </main>
  );
}
