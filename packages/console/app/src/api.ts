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

/** Calls the server's HTTP API with the session cookie; answers the parsed JSON body. */
export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const method = (init?.method ?? 'GET').toUpperCase();
  // A state-changing call with the session cookie must echo the session's CSRF token, which the server also sets as a cookie.
  const csrf = method === 'GET' || method === 'HEAD' ? undefined : /(?:^|;\s*)vigie_csrf=([^;]*)/.exec(document.cookie)?.[1];
  const response = await fetch(path, {
    ...init,
    credentials: 'same-origin',
    // Marks a script's call: the server then answers a lapsed session with a 401 the browser does not turn into a password prompt.
    headers: {
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...(init?.body ? { 'content-type': 'application/json' } : {}),
      ...(csrf ? { 'x-csrf-token': decodeURIComponent(csrf) } : {}),
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
  return (await response.json()) as T;
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
