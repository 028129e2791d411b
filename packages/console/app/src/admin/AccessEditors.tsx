import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { api } from '../api.js';
import { failure, FormButtons } from '../ui.js';

export interface User {
  _id: string;
  role: string;
  roles?: string[];
  enabled: boolean;
  external: boolean;
  firstname?: string;
  lastname?: string;
  mail?: string;
}

export interface Role {
  name: string;
  description: string;
  rights: string[];
  builtIn: boolean;
}

/** `alarm:read`, `alarm:write`, `audit:read` → `{alarm: [...], audit: [...]}`, resources in order. */
function byResource(rights: string[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const right of [...rights].sort()) {
    const resource = right.slice(0, right.indexOf(':'));
    groups.set(resource, [...(groups.get(resource) ?? []), right]);
  }
  return [...groups];
}

/** Checkboxes for a set of names, in a fieldset with a legend (keyboard and screen-reader friendly). */
function Checklist({ legend, names, chosen, onChange }: { legend: string; names: string[]; chosen: Set<string>; onChange: (next: Set<string>) => void }) {
  return (
    <fieldset className="checklist">
      <legend>{legend}</legend>
      {names.map((name) => (
        <label key={name}>
          <input
            type="checkbox"
            checked={chosen.has(name)}
            onChange={(e) => {
              const next = new Set(chosen);
              if (e.target.checked) next.add(name);
              else next.delete(name);
              onChange(next);
            }}
          />
          {name}
        </label>
      ))}
    </fieldset>
  );
}

/** The server's answer to a save, next to the form's buttons. */
function SaveError({ error }: { error: unknown }) {
  return error ? <p role="alert" className="error">Not saved: {failure(error)}</p> : null;
}

/** A custom role's description and rights, the rights being those the server's routes declare (`GET /api/v2/rights`). */
export function RoleEditor({ role, onSaved, onCancel }: { role: Role; onSaved: (role: Role) => void; onCancel: () => void }) {
  const known = useQuery({ queryKey: ['rights'], queryFn: () => api<string[]>('/api/v2/rights') });
  const [description, setDescription] = useState(role.description);
  const [rights, setRights] = useState(() => new Set(role.rights));
  const descriptionId = useId();
  const save = useMutation({
    mutationFn: () =>
      api<Role>(`/api/v2/roles/${encodeURIComponent(role.name)}`, { method: 'PUT', body: JSON.stringify({ description, rights: [...rights].sort() }) }),
    onSuccess: onSaved,
  });
  // A right the role holds but no route declares any more stays listed, so saving does not drop it unseen.
  const groups = useMemo(() => byResource([...new Set([...(known.data ?? []), ...role.rights])]), [known.data, role.rights]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <section className="editor" aria-label={`Edit role ${role.name}`}>
      <h3>Role {role.name}</h3>
      <form onSubmit={submit}>
        <div className="form-group">
          <label htmlFor={descriptionId}>Description</label>
          <input id={descriptionId} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        {known.isError && <p role="alert" className="error">{failure(known.error)}</p>}
        {known.data ? (
          <div className="rights">
            {groups.map(([resource, names]) => (
              <Checklist key={resource} legend={resource} names={names} chosen={rights} onChange={setRights} />
            ))}
          </div>
        ) : (
          !known.isError && <p>Loading the rights…</p>
        )}
        <SaveError error={save.error} />
        <FormButtons submit="Save" pending={save.isPending} disabled={!known.data} onCancel={onCancel} />
      </form>
    </section>
  );
}

/** The fields of `PUT /api/v2/users/<name>` that differ from the user as listed; a password only when one is typed. */
function userChange(user: User, form: { roles: string[]; firstname: string; lastname: string; mail: string; password: string; enabled: boolean }) {
  const change: Record<string, unknown> = {};
  const before = user.roles ?? [user.role];
  if (form.roles.join('\n') !== [...before].sort().join('\n')) change.roles = form.roles;
  for (const field of ['firstname', 'lastname', 'mail'] as const) if (form[field] !== (user[field] ?? '')) change[field] = form[field];
  if (form.password) change.password = form.password;
  if (form.enabled !== user.enabled) change.enabled = form.enabled;
  return change;
}

/**
 * A user's roles, contact, enabled flag and a new password (never shown back). The roles are a checklist when the
 * administrator may read them (`roles:admin`), a comma-separated list otherwise.
 */
export function UserEditor({ user, canListRoles, onSaved, onCancel }: { user: User; canListRoles: boolean; onSaved: (user: User) => void; onCancel: () => void }) {
  const roleList = useQuery({ queryKey: ['roles'], queryFn: () => api<Role[]>('/api/v2/roles'), enabled: canListRoles });
  const [roles, setRoles] = useState(() => new Set(user.roles ?? [user.role]));
  const [rolesText, setRolesText] = useState(() => [...roles].join(', '));
  const checklist = canListRoles && roleList.data !== undefined;
  const [firstname, setFirstname] = useState(user.firstname ?? '');
  const [lastname, setLastname] = useState(user.lastname ?? '');
  const [mail, setMail] = useState(user.mail ?? '');
  const [password, setPassword] = useState('');
  const [enabled, setEnabled] = useState(user.enabled);
  const id = useId();
  const save = useMutation({
    mutationFn: () => {
      const chosen = checklist ? [...roles] : rolesText.split(',').map((r) => r.trim()).filter(Boolean);
      const change = userChange(user, { roles: chosen.sort(), firstname, lastname, mail, password, enabled });
      return api<User>(`/api/v2/users/${encodeURIComponent(user._id)}`, { method: 'PUT', body: JSON.stringify(change) });
    },
    onSuccess: (saved) => {
      setPassword('');
      onSaved(saved);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const text = (name: string, label: string, value: string, set: (v: string) => void, type = 'text') => (
    <div className="form-group">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input id={`${id}-${name}`} type={type} value={value} onChange={(e) => set(e.target.value)} autoComplete={type === 'password' ? 'new-password' : 'off'} />
    </div>
  );
  return (
    <section className="editor" aria-label={`Edit user ${user._id}`}>
      <h3>User {user._id}</h3>
      <form onSubmit={submit}>
        {checklist ? (
          <Checklist legend="Roles" names={roleList.data.map((r) => r.name)} chosen={roles} onChange={setRoles} />
        ) : (
          text('roles', 'Roles (separated by commas)', rolesText, setRolesText)
        )}
        {text('firstname', 'First name', firstname, setFirstname)}
        {text('lastname', 'Last name', lastname, setLastname)}
        {text('mail', 'Mail', mail, setMail, 'email')}
        {/* An identity provider owns the password of its users: the server refuses one (409). */}
        {!user.external && text('password', 'New password (left empty: unchanged)', password, setPassword, 'password')}
        <div className="form-group checkbox">
          <label>
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
          </label>
        </div>
        <SaveError error={save.error} />
        <FormButtons submit="Save" pending={save.isPending} onCancel={onCancel} />
      </form>
    </section>
  );
}
