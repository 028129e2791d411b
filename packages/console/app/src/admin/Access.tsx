import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, holds, type Account } from '../api.js';
import { requestSchema, useOpenApi, type FieldLabels } from './openapi.js';
import { RoleEditor, UserEditor, type Role, type User } from './AccessEditors.js';
import { failure, FormButtons, Pager, ScrollTable, useRemoval } from '../ui.js';
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

const userFields: FieldLabels = {
  name: { title: 'User name', help: 'What the user types to sign in.' },
  password: { title: 'Password', help: 'At least 8 characters; never shown back.' },
  roles: { title: 'Roles', help: 'Role names, e.g. operator, viewer, admin.' },
  enabled: { title: 'Enabled', help: 'A disabled user cannot sign in.' },
  mail: { title: 'Mail' },
  firstname: { title: 'First name' },
  lastname: { title: 'Last name' },
};
const roleFields: FieldLabels = {
  name: { title: 'Name' },
  description: { title: 'Description' },
  rights: { title: 'Rights', help: 'Each a resource and a permission, e.g. alarms:read, audit:read.' },
};
const apiKeyFields: FieldLabels = {
  label: { title: 'Label', help: 'What the key is for, e.g. the CI pipeline.' },
  expires: { title: 'Expires', help: 'Epoch seconds; never when empty.' },
  rights: { title: 'Rights', help: 'Fewer rights than yours, e.g. events:write; all of yours when empty.' },
};

/** A create form generated from the route's schema in the server's OpenAPI document; closes when saved. */
function CreateForm({ path, title, labels, onSaved, onCancel }: { path: string; title: string; labels: FieldLabels; onSaved: (answer: unknown) => void; onCancel: () => void }) {
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
      <SchemaForm schema={schema} labels={labels} initial={{}} problem={problem} onSubmit={(data) => { setProblem(null); create.mutate(data); }}>
        <FormButtons submit="Create" pending={create.isPending} onCancel={onCancel} />
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
  const remove = useRemoval({ path: (user: User) => `/api/v2/users/${encodeURIComponent(user._id)}`, name: (user) => user._id, queryKey: ['users'], onMessage: setMessage });
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
          labels={userFields}
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
        <ScrollTable label="Users" columns={['Name', 'Roles', 'Enabled', 'Signs in with', 'Actions']}>
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
        </ScrollTable>
      )}
      <Pager label="User pages" page={page} pageCount={Math.ceil(total / pageSize)} onPage={setPage} />
    </section>
  );
}

function Roles() {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Role | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api<Role[]>('/api/v2/roles') });
  const remove = useRemoval({ path: (role: Role) => `/api/v2/roles/${encodeURIComponent(role.name)}`, name: (role) => role.name, queryKey: ['roles'], onMessage: setMessage });
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
          labels={roleFields}
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
        <ScrollTable label="Roles" columns={['Role', 'Description', 'Rights', 'Actions']}>
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
        </ScrollTable>
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
  const remove = useRemoval({ path: (key: ApiKey) => `/api/v2/api-keys/${encodeURIComponent(key.id)}`, name: (key) => `Key ${key.label}`, queryKey: ['api-keys'], onMessage: setMessage, done: 'revoked' });
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
          labels={apiKeyFields}
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
        <ScrollTable label="API keys" columns={['Label', 'Starts with', 'Created', 'Expires', 'Rights', 'Actions']}>
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
        </ScrollTable>
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
