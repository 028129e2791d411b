import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, holds, type Account } from '../api.js';
import { requestSchema, useOpenApi } from './openapi.js';
import { failure, RoleEditor, UserEditor, type Role, type User } from './AccessEditors.js';
import { SchemaForm, serverProblem, type ServerProblem } from './SchemaForm.js';

interface ApiKey {
  id: string;
  user: string;
  label: string;
  prefix: string | null;
  created: number;
  expires: number | null;
  rights: string[] | null;
  key?: string;
}

const pageSize = 20;

/** A create form generated from the route's schema in the server's OpenAPI document; closes when saved. */
function CreateForm({ path, title, onSaved, onCancel }: { path: string; title: string; onSaved: (answer: unknown) => void; onCancel: () => void }) {
  const openApi = useOpenApi();
  const schema = useMemo(() => (openApi.data ? requestSchema(openApi.data, path, 'post') : undefined), [openApi.data, path]);
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  const create = useMutation({
    mutationFn: (data: Record<string, unknown>) => api<unknown>(path, { method: 'POST', body: JSON.stringify(data) }),
    onSuccess: onSaved,
    onError: (error) => schema && setProblem(serverProblem(error, schema)),
  });
  if (openApi.isError) return <p role="alert">{openApi.error.message}</p>;
  if (!schema) return <p>Loading the form…</p>;
  return (
    <section className="editor" aria-label={title}>
      <h3>{title}</h3>
      <SchemaForm schema={schema} initial={{}} problem={problem} onSubmit={(data) => { setProblem(null); create.mutate(data); }}>
        <div className="actions">
          <button type="submit" className="button primary" disabled={create.isPending}>
            Create
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </SchemaForm>
    </section>
  );
}

function Users({ canListRoles }: { canListRoles: boolean }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const users = useQuery({
    queryKey: ['users', search, page],
    queryFn: () => api<{ data: User[]; meta: { total_count: number } }>(`/api/v2/users?page=${page}&limit=${pageSize}${search ? `&search=${encodeURIComponent(search)}` : ''}`),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['users'] });
  const change = useMutation({
    mutationFn: ({ user, enabled }: { user: User; enabled: boolean }) => api(`/api/v2/users/${encodeURIComponent(user._id)}`, { method: 'PUT', body: JSON.stringify({ enabled }) }),
    onSuccess: async (_, { user, enabled }) => { setMessage(`${user._id} ${enabled ? 'enabled' : 'disabled'}`); await refresh(); },
    onError: (error) => setMessage(`Not changed: ${failure(error)}`),
  });
  const remove = useMutation({
    mutationFn: (user: User) => api(`/api/v2/users/${encodeURIComponent(user._id)}`, { method: 'DELETE' }),
    onSuccess: async (_, user) => { setMessage(`${user._id} deleted`); await refresh(); },
    onError: (error) => setMessage(`Not deleted: ${failure(error)}`),
  });
  const total = users.data?.meta.total_count ?? 0;
  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <div className="toolbar">
        <label>
          Search <input type="search" value={search} onChange={(e) => { setSearch(e.target.value); setPage(1); }} />
        </label>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          New user
        </button>
        <p className="count" role="status">
          {users.data ? `${total} users` : ''}
          {message && ` — ${message}`}
        </p>
      </div>
      {creating && (
        <CreateForm
          path="/api/v2/users"
          title="New user"
          onCancel={() => setCreating(false)}
          onSaved={async () => { setCreating(false); setMessage('User created'); await refresh(); }}
        />
      )}
      {editing && (
        <UserEditor
          key={editing._id}
          user={editing}
          canListRoles={canListRoles}
          onCancel={() => setEditing(null)}
          onSaved={async (saved) => { setEditing(null); setMessage(`${saved._id} saved`); await refresh(); }}
        />
      )}
      {users.isError && <p role="alert" className="error">{users.error.message}</p>}
      {users.data && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Users (scrolls sideways)">
          <table className="simple">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Roles</th>
                <th scope="col">Enabled</th>
                <th scope="col">Signs in with</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.data.data.map((u) => (
                <tr key={u._id}>
                  <th scope="row">{u._id}</th>
                  <td>{(u.roles ?? [u.role]).join(', ')}</td>
                  <td>{u.enabled ? 'yes' : 'no'}</td>
                  <td>{u.external ? 'an identity provider' : 'a password'}</td>
                  <td className="actions">
                    <button type="button" onClick={() => setEditing(u)} aria-label={`Edit ${u._id}`}>
                      Edit
                    </button>
                    <button type="button" onClick={() => change.mutate({ user: u, enabled: !u.enabled })} aria-label={`${u.enabled ? 'Disable' : 'Enable'} ${u._id}`}>
                      {u.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button type="button" onClick={() => window.confirm(`Delete ${u._id}?`) && remove.mutate(u)} aria-label={`Delete ${u._id}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > pageSize && (
        <nav className="pager" aria-label="User pages">
          <button type="button" disabled={page === 1} onClick={() => setPage(page - 1)}>Previous</button>
          <span>Page {page} of {Math.ceil(total / pageSize)}</span>
          <button type="button" disabled={page * pageSize >= total} onClick={() => setPage(page + 1)}>Next</button>
        </nav>
      )}
    </section>
  );
}

function Roles() {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Role | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api<Role[]>('/api/v2/roles') });
  const remove = useMutation({
    mutationFn: (role: Role) => api(`/api/v2/roles/${encodeURIComponent(role.name)}`, { method: 'DELETE' }),
    onSuccess: async (_, role) => { setMessage(`${role.name} deleted`); await queryClient.invalidateQueries({ queryKey: ['roles'] }); },
    onError: (error) => setMessage(`Not deleted: ${failure(error)}`),
  });
  return (
    <section aria-labelledby="roles-title">
      <h2 id="roles-title">Roles</h2>
      <div className="toolbar">
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          New role
        </button>
        <p className="count" role="status">{message}</p>
      </div>
      {creating && (
        <CreateForm
          path="/api/v2/roles"
          title="New role"
          onCancel={() => setCreating(false)}
          onSaved={async () => { setCreating(false); setMessage('Role created'); await queryClient.invalidateQueries({ queryKey: ['roles'] }); }}
        />
      )}
      {editing && (
        <RoleEditor
          key={editing.name}
          role={editing}
          onCancel={() => setEditing(null)}
          onSaved={async (saved) => { setEditing(null); setMessage(`${saved.name} saved`); await queryClient.invalidateQueries({ queryKey: ['roles'] }); }}
        />
      )}
      {roles.isError && <p role="alert" className="error">{roles.error.message}</p>}
      {roles.data && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Roles (scrolls sideways)">
          <table className="simple">
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Description</th>
                <th scope="col">Rights</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {roles.data.map((r) => (
                <tr key={r.name}>
                  <th scope="row">
                    {r.name}
                    {r.builtIn && <span className="muted"> (built in)</span>}
                  </th>
                  <td>{r.description}</td>
                  <td>{r.rights.includes('*') ? 'every right' : r.rights.join(', ')}</td>
                  <td className="actions">
                    {/* Built-in roles are read-only on the server (400): shown, never edited. */}
                    {!r.builtIn && (
                      <>
                        <button type="button" onClick={() => setEditing(r)} aria-label={`Edit role ${r.name}`}>
                          Edit
                        </button>
                        <button type="button" onClick={() => window.confirm(`Delete ${r.name}?`) && remove.mutate(r)} aria-label={`Delete role ${r.name}`}>
                          Delete
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The signed-in user's API keys; a new key's secret is shown once, right after it is made. */
function ApiKeys() {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<ApiKey | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => api<ApiKey[]>('/api/v2/api-keys') });
  const remove = useMutation({
    mutationFn: (key: ApiKey) => api(`/api/v2/api-keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' }),
    onSuccess: async (_, key) => { setMessage(`Key ${key.label} revoked`); await queryClient.invalidateQueries({ queryKey: ['api-keys'] }); },
    onError: (error) => setMessage(`Not revoked: ${failure(error)}`),
  });
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">My API keys</h2>
      <div className="toolbar">
        <button type="button" className="button primary" onClick={() => { setCreating(true); setSecret(null); }}>
          New API key
        </button>
        <p className="count" role="status">{message}</p>
      </div>
      {creating && (
        <CreateForm
          path="/api/v2/api-keys"
          title="New API key"
          onCancel={() => setCreating(false)}
          onSaved={async (answer) => { setCreating(false); setSecret(answer as ApiKey); await queryClient.invalidateQueries({ queryKey: ['api-keys'] }); }}
        />
      )}
      {secret?.key && (
        <div className="secret" role="status">
          <p>
            The secret of <strong>{secret.label}</strong>, shown this once (copy it now; the server keeps only its hash):
          </p>
          <p>
            <code className="key-secret">{secret.key}</code>
          </p>
          <button type="button" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </div>
      )}
      {keys.isError && <p role="alert" className="error">{keys.error.message}</p>}
      {keys.data && keys.data.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="API keys (scrolls sideways)">
          <table className="simple">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Rights</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <th scope="row">{k.label}</th>
                  <td>{k.prefix ?? ''}</td>
                  <td>{new Date(k.created * 1000).toLocaleString()}</td>
                  <td>{k.expires ? new Date(k.expires * 1000).toLocaleString() : 'never'}</td>
                  <td>{k.rights ? k.rights.join(', ') : 'those of the user'}</td>
                  <td>
                    <button type="button" onClick={() => window.confirm(`Revoke ${k.label}?`) && remove.mutate(k)} aria-label={`Revoke ${k.label}`}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Users, roles and the user's own API keys; users and roles each shown to those holding `users:admin`, `roles:admin`. */
export default function Access({ account }: { account: Account | undefined }) {
  return (
    <main id="main" className="page admin">
      <h1>Access</h1>
      {holds(account, 'users:admin') && <Users canListRoles={holds(account, 'roles:admin')} />}
      {holds(account, 'roles:admin') && <Roles />}
      {holds(account, 'account:own') && <ApiKeys />}
    </main>
  );
}
