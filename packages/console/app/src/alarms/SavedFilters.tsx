import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api } from '../api.js';

/** `GET /api/v2/saved-filters`: a view of the alarm list the user saved under a name. */
interface SavedFilter {
  _id: string;
  name: string;
  query: string;
}

const key = ['saved-filters'];

/** One saved view: a link that applies it, renaming in place, deletion. */
function SavedFilterItem({ filter, onError }: { filter: SavedFilter; onError: (message: string) => void }) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(filter.name);
  const done = () => void queryClient.invalidateQueries({ queryKey: key });
  const rename = useMutation({
    mutationFn: (newName: string) => api(`/api/v2/saved-filters/${encodeURIComponent(filter._id)}`, { method: 'PUT', body: JSON.stringify({ name: newName }) }),
    onSuccess: () => setRenaming(false),
    onError: (err) => onError(err.message),
    onSettled: done,
  });
  const remove = useMutation({
    mutationFn: () => api(`/api/v2/saved-filters/${encodeURIComponent(filter._id)}`, { method: 'DELETE' }),
    onError: (err) => onError(err.message),
    onSettled: done,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate(name.trim());
  };
  return (
    <li>
      {renaming ? (
        <form onSubmit={submit} aria-label={`Rename ${filter.name}`}>
          <input aria-label="New name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit">Rename</button>
          <button type="button" onClick={() => setRenaming(false)}>
            Back
          </button>
        </form>
      ) : (
        <>
          <Link href={`/${filter.query ? `?${filter.query}` : ''}`}>{filter.name}</Link>
          <button type="button" className="link" aria-label={`Rename ${filter.name}`} onClick={() => setRenaming(true)}>
            rename
          </button>
          <button type="button" className="link" aria-label={`Delete ${filter.name}`} onClick={() => remove.mutate()}>
            delete
          </button>
        </>
      )}
    </li>
  );
}

/** The user's saved views of the alarm list (`/api/v2/saved-filters`): save the current one (the URL query), apply, rename, delete. */
export function SavedFilters({ currentQuery }: { currentQuery: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const saved = useQuery({ queryKey: key, queryFn: () => api<{ data: SavedFilter[] }>('/api/v2/saved-filters'), enabled: open });
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const save = useMutation({
    mutationFn: (filterName: string) => api('/api/v2/saved-filters', { method: 'POST', body: JSON.stringify({ name: filterName, query: currentQuery }) }),
    onSuccess: () => {
      setName('');
      setError('');
    },
    onError: (err) => setError(err.message),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(name.trim());
  };
  return (
    <details className="saved-filters" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Saved views</summary>
      <div className="saved-filters-body">
        <form onSubmit={submit} aria-label="Save this view">
          <label>
            Name of this view
            <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit" disabled={save.isPending}>
            Save view
          </button>
        </form>
        {error && <p role="alert">{error}</p>}
        {saved.isError && <p role="alert">{saved.error.message}</p>}
        {saved.data && saved.data.data.length === 0 && <p className="muted">No saved view yet.</p>}
        <ul aria-label="Saved views">
          {saved.data?.data.map((f) => (
            <SavedFilterItem key={f._id} filter={f} onError={setError} />
          ))}
        </ul>
      </div>
    </details>
  );
}
