/** An answer of the server other than 2xx, with its `{name, description}` envelope when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

type SessionListener = () => void;
const sessionListeners = new Set<SessionListener>();

/** Called once the server answers 401: the session ended (signed out elsewhere, expired, account disabled). */
export function onSessionEnded(listener: SessionListener): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

/** Methods that change nothing: the server asks no CSRF token for them. */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The token of `GET /api/v2/account/me`, kept for when the cookie cannot be read. */
let csrfFromAccount: string | undefined;

/** Remembers the session's CSRF token as `GET /api/v2/account/me` gives it. */
export function rememberCsrfToken(token: string | undefined): void {
  csrfFromAccount = token;
}

/** The session's CSRF token: the `vigie_csrf` cookie the sign-in sets (read afresh, a new sign-in changes it). */
function csrfToken(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'vigie_csrf') return decodeURIComponent(value.join('='));
  }
  return csrfFromAccount;
}

/** Calls the server's HTTP API with the session cookie; answers the parsed JSON body. */
export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const method = (init?.method ?? 'GET').toUpperCase();
  const token = safeMethods.has(method) ? undefined : csrfToken();
  const response = await fetch(path, {
    ...init,
    credentials: 'same-origin',
    // Marks a script's call: the server then answers a lapsed session with a 401 the browser does not turn into a password prompt.
    // A state-changing call echoes the session's CSRF token, which a page of another site cannot read.
    headers: {
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...(init?.body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { 'x-csrf-token': token } : {}),
      ...init?.headers,
    },
  });
  if (response.status === 401) for (const listener of sessionListeners) listener();
  if (!response.ok) {
    let description = response.statusText;
    try {
      const body = (await response.json()) as { description?: unknown };
      if (typeof body.description === 'string') description = body.description;
    } catch {
      // Not JSON: keep the status text.
    }
    throw new ApiError(response.status, description);
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** One item's outcome in the 207 answer of a bulk route. */
export interface BulkItemResult {
  id: string;
  status: number;
  error?: string;
}

/** Sends a bulk route its items; answers one result per item, in the order sent. */
export function bulk(method: 'POST' | 'PUT' | 'DELETE', path: string, items: object[]): Promise<BulkItemResult[]> {
  return api<BulkItemResult[]>(path, { method, body: JSON.stringify(items) });
}

/** `GET /api/v2/account/me`. */
export interface Account {
  id: string;
  name: string;
  role: string | null;
  roles: string[];
  /** What the user may do (`*`: everything); the server still checks every call. */
  rights: string[];
  via: string;
  /** With a login session: the token state-changing calls echo in `X-CSRF-Token`. */
  csrf_token?: string;
}

/** Whether an account holds a right: screens and buttons the user may not use are not shown. */
export function holds(account: Account | undefined, right: string): boolean {
  return account !== undefined && (account.rights.includes('*') || account.rights.includes(right));
}

export interface AlarmStep {
  _t: string;
  t: number;
  a: string;
  m: string;
  val?: number;
}

export interface AlarmValue {
  state: AlarmStep;
  status: AlarmStep;
  steps?: AlarmStep[];
  ack?: AlarmStep;
  snooze?: AlarmStep & { val?: number };
  ticket?: AlarmStep & { val?: string };
  canceled?: AlarmStep;
  connector: string;
  connector_name: string;
  component: string;
  resource?: string;
  display_name: string;
  output: string;
  creation_date: number;
  last_update_date: number;
  resolved?: number;
  infos: Record<string, unknown>;
  pbehavior_info?: { name: string; type_name: string; canonical_type: string };
}

export interface Alarm {
  _id: string;
  t: number;
  d: string;
  v: AlarmValue;
  entity?: Record<string, unknown> | null;
}

/** `GET /alerts/get-alarms`. */
export interface AlarmPage {
  data: { alarms: Alarm[]; total: number; first: number; last: number }[];
}

/** `GET /api/v2/broadcast-message/active`. */
export interface BroadcastMessage {
  _id: string;
  message: string;
  color: string;
}
