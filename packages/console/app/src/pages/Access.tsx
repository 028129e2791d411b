import { useQuery } from '@tanstack/react-query';
import { api, holds, type Account } from '../api.js';

interface User {
  _id: string;
  role: string;
  roles?: string[];
  enabled: boolean;
  external: boolean;
}

interface Role {
  name: string;
  description: string;
  rights: string[];
  builtIn: boolean;
}

function Users() {
  const users = useQuery({ queryKey: ['users'], queryFn: () => api<{ data: User[]; meta: { total_count: number } }>('/api/v2/users?per_page=100') });
  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      {users.isError && <p role="alert">{users.error.message}</p>}
      {users.data && (
        <table className="simple">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Roles</th>
              <th scope="col">Enabled</th>
              <th scope="col">Signs in with</th>
            </tr>
          </thead>
          <tbody>
            {users.data.data.map((u) => (
              <tr key={u._id}>
                <th scope="row">{u._id}</th>
                <td>{(u.roles ?? [u.role]).join(', ')}</td>
                <td>{u.enabled ? 'yes' : 'no'}</td>
                <td>{u.external ? 'an identity provider' : 'a password'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Roles() {
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api<Role[]>('/api/v2/roles') });
  return (
    <section aria-labelledby="roles-title">
      <h2 id="roles-title">Roles</h2>
      {roles.isError && <p role="alert">{roles.error.message}</p>}
      {roles.data && (
        <table className="simple">
          <thead>
            <tr>
              <th scope="col">Role</th>
              <th scope="col">Description</th>
              <th scope="col">Rights</th>
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
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Who may do what: the users and the roles, each shown to those holding its right (`users:admin`, `roles:admin`). */
export function Access({ account }: { account: Account | undefined }) {
  return (
    <main id="main" className="page">
      <h1>Access</h1>
      {holds(account, 'users:admin') && <Users />}
      {holds(account, 'roles:admin') && <Roles />}
    </main>
  );
}
