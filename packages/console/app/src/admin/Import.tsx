import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.js';

interface ImportStatus {
  _id: string;
  status: 'pending' | 'ongoing' | 'done' | 'failed' | 'not_found';
  creation?: string;
  exec_time?: string;
  stats?: { deleted: number; updated: number };
  info?: string;
}

const example = JSON.stringify({ cis: [{ _id: 'db-paris-1', type: 'component', action: 'create' }], links: [] }, null, 2);
const finished = (status: string | undefined) => status === 'done' || status === 'failed' || status === 'not_found';

/** The context-graph import: a document of entities and links sent, then its progress followed until it ends. */
export default function Import({ writable }: { writable: boolean }) {
  const [text, setText] = useState(example);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = useMutation({
    mutationFn: (document: unknown) => api<{ data: { import_id: string }[] }>('/api/contextgraph/import', { method: 'PUT', body: JSON.stringify({ json: document }) }),
  });
  const importId = submit.data?.data[0]?.import_id;
  const status = useQuery({
    queryKey: ['import', importId],
    queryFn: () => api<ImportStatus>(`/api/contextgraph/import/status/${encodeURIComponent(importId ?? '')}`),
    enabled: importId !== undefined,
    // Followed every second until the import has ended.
    refetchInterval: (query) => (finished(query.state.data?.status) ? false : 1000),
  });
  return (
    <main id="main" className="page admin">
      <h1>Context-graph import</h1>
      {!writable && <p>You may follow imports but not start one (the right <code>import:write</code> is needed).</p>}
      {writable && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            try {
              const document = JSON.parse(text) as unknown;
              setProblem(null);
              submit.mutate(document);
            } catch {
              setProblem('The document is not valid JSON');
            }
          }}
        >
          <label htmlFor="import-document">Document (<code>{'{cis: [...], links: [...]}'}</code>)</label>
          <textarea id="import-document" rows={12} value={text} spellCheck={false} onChange={(e) => setText(e.target.value)} aria-invalid={problem !== null} />
          {problem && <p className="field-error">{problem}</p>}
          <div className="actions">
            <button type="submit" className="button primary" disabled={submit.isPending}>
              Import
            </button>
          </div>
        </form>
      )}
      {submit.isError && <p role="alert" className="error">{submit.error.message}</p>}
      {importId && (
        <section aria-labelledby="import-progress" className="import-progress">
          <h2 id="import-progress">Import {importId}</h2>
          <p role="status">
            {status.data ? `Status: ${status.data.status}` : 'Waiting for the status…'}
            {status.data?.stats && ` — ${status.data.stats.updated} entities created or changed, ${status.data.stats.deleted} deleted`}
            {status.data?.exec_time && ` in ${status.data.exec_time}`}
          </p>
          {status.data && <progress aria-label="Import progress" max={2} value={status.data.status === 'pending' ? 0 : status.data.status === 'ongoing' ? 1 : 2} />}
          {status.data?.info && <p className={status.data.status === 'failed' ? 'error' : undefined}>{status.data.info}</p>}
        </section>
      )}
    </main>
  );
}
