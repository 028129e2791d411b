import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { api, holds, type Account } from '../api.js';
import { failure, FormButtons, Pager, ScrollTable, useRemoval } from '../ui.js';
import { pick, requestSchema, useOpenApi } from './openapi.js';
import { resourceByKey, resources, type ResourceDef } from './resources.js';
import { SchemaForm, serverProblem, type ServerProblem } from './SchemaForm.js';

type Item = Record<string, unknown>;
const pageSize = 20;

/** A list answer is an array, or an object holding one (`{count, rules}`, `{data}`). */
function itemsOf(body: unknown): Item[] {
  if (Array.isArray(body)) return body as Item[];
  if (body && typeof body === 'object') for (const value of Object.values(body)) if (Array.isArray(value)) return value as Item[];
  return [];
}

const show = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
const idOf = (def: ResourceDef, item: Item) => (def.idOf ? def.idOf(item) : String(item._id));

interface PreviewAnswer {
  subject: string;
  count: number;
  scanned?: number;
  data: unknown[];
  problem?: string;
}

function Preview({ def, data }: { def: ResourceDef; data: Item }) {
  const preview = useMutation({ mutationFn: () => api<PreviewAnswer>(`${def.collection}/preview?limit=5`, { method: 'POST', body: JSON.stringify(data) }) });
  return (
    <section className="preview" aria-label="Impact preview">
      <button type="button" onClick={() => preview.mutate()} disabled={preview.isPending}>
        Preview impact
      </button>
      {preview.isError && <p className="error">{preview.error.message}</p>}
      {preview.data && (
        <div role="status">
          <p>
            Would apply to <strong>{preview.data.count}</strong> {preview.data.subject}
            {preview.data.scanned !== undefined && ` (of ${preview.data.scanned} looked at)`}.{preview.data.problem && ` ${preview.data.problem}`}
          </p>
          {preview.data.data.length > 0 && (
            <ul className="preview-items">
              {preview.data.data.map((d, i) => (
                <li key={i}>
                  <code>{show(d).slice(0, 200)}</code>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

function Editor({ def, item, onDone }: { def: ResourceDef; item: Item | null; onDone: () => void }) {
  const openApi = useOpenApi();
  const queryClient = useQueryClient();
  const schema = useMemo(
    () => (openApi.data ? requestSchema(openApi.data, item ? `${def.collection}/{id}` : def.collection, item ? 'put' : 'post') : undefined),
    [openApi.data, def, item],
  );
  const initial = useMemo(() => (item && schema ? pick(item, schema) : {}), [item, schema]);
  const [draft, setDraft] = useState<Item>(initial);
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  const save = useMutation({
    mutationFn: (data: Item) =>
      api(item ? `${def.collection}/${encodeURIComponent(idOf(def, item))}` : def.collection, { method: item ? 'PUT' : 'POST', body: JSON.stringify(data) }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['resource', def.key] });
      onDone();
    },
    onError: (error) => schema && setProblem(serverProblem(error, schema)),
  });
  if (openApi.isError) return <p role="alert">{openApi.error.message}</p>;
  if (!schema) return <p>Loading the form…</p>;
  return (
    <section className="editor" aria-labelledby="editor-title">
      <h2 id="editor-title">{item ? `Edit ${idOf(def, item)}` : `New ${def.title.toLowerCase().replace(/s( \(.*\))?$/, '')}`}</h2>
      <SchemaForm
        schema={schema}
        labels={def.fields}
        initial={draft}
        problem={problem}
        onChange={setDraft}
        onSubmit={(data) => {
          setProblem(null);
          save.mutate(data);
        }}
      >
        {def.preview && <Preview def={def} data={draft} />}
        <FormButtons submit="Save" pending={save.isPending} onCancel={onDone} />
      </SchemaForm>
    </section>
  );
}

/** One rule resource: its list (search, pages), and for a user with the write right, create, edit and delete. */
export function ResourcePage({ resource, account }: { resource: string; account: Account | undefined }) {
  const def = resourceByKey(resource);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ item: Item | null } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const list = useQuery({ queryKey: ['resource', def?.key], queryFn: () => api<unknown>(def?.collection ?? ''), enabled: def !== undefined });
  const remove = useRemoval({
    path: (item: Item) => `${def?.collection}/${encodeURIComponent(def ? idOf(def, item) : '')}`,
    name: (item) => (def ? idOf(def, item) : ''),
    queryKey: ['resource', def?.key],
    onMessage: setMessage,
  });
  if (!def) return <main id="main" className="page"><h1>No such page</h1></main>;
  const writable = holds(account, def.write);
  const items = itemsOf(list.data).filter((item) => search === '' || JSON.stringify(item).toLowerCase().includes(search.toLowerCase()));
  const pages = Math.max(1, Math.ceil(items.length / pageSize));
  const shown = items.slice((page - 1) * pageSize, page * pageSize);
  return (
    <main id="main" className="page admin">
      <p className="crumbs">
        <Link href="/admin">Configuration</Link> ›
      </p>
      <h1>{def.title}</h1>
      <div className="toolbar">
        <label>
          Search <input type="search" value={search} onChange={(e) => { setSearch(e.target.value); setPage(1); }} />
        </label>
        {writable && (
          <button type="button" className="button primary" onClick={() => setEditing({ item: null })}>
            New
          </button>
        )}
        <p className="count" role="status">
          {list.data ? `${items.length} ${items.length === 1 ? 'item' : 'items'}` : ''}
          {message && ` — ${message}`}
        </p>
      </div>
      {editing && <Editor key={editing.item ? idOf(def, editing.item) : 'new'} def={def} item={editing.item} onDone={() => setEditing(null)} />}
      {list.isError && <p role="alert" className="error">{list.error.message}</p>}
      {list.data !== undefined && (
        <>
          <ScrollTable label="Items" className="resource-list" columns={['Id', ...def.columns.map((c) => c.label), ...(writable ? ['Actions'] : [])]}>
            {shown.map((item) => {
              const id = idOf(def, item);
              return (
                <tr key={id}>
                  <th scope="row">{id}</th>
                  {def.columns.map((c) => (
                    <td key={c.label}>{show(c.value(item))}</td>
                  ))}
                  {writable && (
                    <td className="actions">
                      <button type="button" onClick={() => setEditing({ item })} aria-label={`Edit ${id}`}>
                        Edit
                      </button>
                      <button type="button" onClick={() => window.confirm(`Delete ${id}?`) && remove.mutate(item)} aria-label={`Delete ${id}`}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </ScrollTable>
          {items.length === 0 && <p className="empty">Nothing here yet.</p>}
        </>
      )}
      <Pager label="Pages" page={page} pageCount={pages} onPage={setPage} />
      {def.key === 'webhooks' && <Deliveries writable={writable} />}
    </main>
  );
}

interface Delivery {
  _id: string;
  webhook: string;
  alarm?: string;
  status: string;
  attempts?: { t: number; status?: number; error?: string }[];
}

function lastAttempt(d: Delivery): string {
  const last = d.attempts?.at(-1);
  if (!last) return '';
  return `${new Date(last.t * 1000).toLocaleString()}: ${last.error ?? `HTTP ${last.status ?? '?'}`} (${d.attempts?.length} attempts)`;
}

/** The webhooks' recent deliveries, each replayable by a user with `webhooks:write`. */
function Deliveries({ writable }: { writable: boolean }) {
  const [status, setStatus] = useState('');
  const [replayed, setReplayed] = useState<string | null>(null);
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', status],
    queryFn: () => api<{ total_count: number; data: Delivery[] }>(`/api/v2/webhook-deliveries?limit=50${status ? `&status=${encodeURIComponent(status)}` : ''}`),
  });
  const replay = useMutation({
    mutationFn: (id: string) => api(`/api/v2/webhook-deliveries/${encodeURIComponent(id)}/replay`, { method: 'POST' }),
    onSuccess: (_, id) => setReplayed(`Replayed ${id}`),
    onError: (error) => setReplayed(`Not replayed: ${failure(error)}`),
  });
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <div className="toolbar">
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">any</option>
            <option value="succeeded">succeeded</option>
            <option value="failed">failed</option>
            <option value="pending">pending</option>
            <option value="skipped">skipped</option>
          </select>
        </label>
        <p className="count" role="status">
          {deliveries.data ? `${deliveries.data.total_count} deliveries` : ''}
          {replayed && ` — ${replayed}`}
        </p>
      </div>
      {deliveries.isError && <p role="alert" className="error">{deliveries.error.message}</p>}
      {deliveries.data && deliveries.data.data.length > 0 && (
        <ScrollTable label="Deliveries" columns={['Delivery', 'Webhook', 'Alarm', 'Status', 'Last attempt', ...(writable ? ['Replay'] : [])]}>
          {deliveries.data.data.map((d) => (
            <tr key={d._id}>
              <th scope="row">{d._id}</th>
              <td>{d.webhook}</td>
              <td>{d.alarm ?? ''}</td>
              <td>{d.status}</td>
              <td>{lastAttempt(d)}</td>
              {writable && (
                <td>
                  <button type="button" onClick={() => replay.mutate(d._id)} aria-label={`Replay ${d._id}`}>
                    Replay
                  </button>
                </td>
              )}
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

/** The configuration pages the user may read. */
export function AdminIndex({ account }: { account: Account | undefined }) {
  const readable = resources.filter((r) => holds(account, r.read));
  return (
    <main id="main" className="page admin">
      <h1>Configuration</h1>
      <ul className="admin-index">
        {readable.map((r) => (
          <li key={r.key}>
            <Link href={`/admin/${r.key}`}>{r.title}</Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
