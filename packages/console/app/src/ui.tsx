import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, ApiError } from './api.js';

/** What the server (or the network) said, for a message next to what failed. */
export const failure = (error: unknown) => (error instanceof ApiError ? error.description : error instanceof Error ? error.message : String(error));

/** Previous/next buttons around "Page n of m"; pages count from 1. Hidden when everything fits on one page. */
export function Pager({ label, page, pageCount, onPage }: { label: string; page: number; pageCount: number; onPage: (page: number) => void }) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pageCount}
      </span>
      <button type="button" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/**
 * A simple table in a region that scrolls sideways on a narrow screen (focusable, so a keyboard can scroll it), with
 * one column header per name; `children` are the body's rows.
 */
export function ScrollTable({ label, columns, className, children }: { label: string; columns: string[]; className?: string; children: ReactNode }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={`${label} (scrolls sideways)`}>
      <table className={className ? `simple ${className}` : 'simple'}>
        <thead>
          <tr>
            {columns.map((name) => (
              <th scope="col" key={name}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A form's submit and cancel buttons. */
export function FormButtons({ submit, pending, disabled, onCancel }: { submit: string; pending: boolean; disabled?: boolean; onCancel: () => void }) {
  return (
    <div className="actions">
      <button type="submit" className="button primary" disabled={pending || disabled === true}>
        {submit}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/**
 * The DELETE of one listed item: reports "<name> deleted" (or why not) through `onMessage` and refreshes the queries
 * under `queryKey`.
 */
export function useRemoval<T>({ path, name, queryKey, onMessage, done = 'deleted' }: { path: (item: T) => string; name: (item: T) => string; queryKey: unknown[]; onMessage: (message: string) => void; done?: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: T) => api(path(item), { method: 'DELETE' }),
    onSuccess: async (_, item) => {
      onMessage(`${name(item)} ${done}`);
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => onMessage(`Not ${done}: ${failure(error)}`),
  });
}
