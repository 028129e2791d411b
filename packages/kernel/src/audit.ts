import type { AuthenticatedUser } from './auth.js';

/**
 * One change asked through the API, as the kernel hands it to the audit trail before the handler runs: who, what,
 * from where, and the request body with its secrets masked.
 */
export interface AuditEntry {
  requestId: string;
  /** Epoch milliseconds. */
  at: number;
  user: Pick<AuthenticatedUser, 'id' | 'name' | 'via' | 'apiKey'>;
  method: string;
  /** The route template (`/api/v2/idle-rule/:id`) and the path as asked. */
  route: string;
  path: string;
  /** The path parameters: which resource. */
  params: Record<string, string>;
  /** The right the route needs: the action. */
  right: string | undefined;
  clientAddress: string;
  /** The parsed body, secrets masked; null when the route reads its own (streams) or sent none. */
  body: unknown;
}

/** How the change ended: the status answered (an error's, when the handler failed). */
export interface AuditOutcome {
  status: number;
  /** Epoch milliseconds. */
  at: number;
}

/**
 * Where the kernel records every change made through the API (a feature provides it with `f.auditTrail`). `begin`
 * resolves once the record is durable, before the handler runs: a change can never be kept without its record,
 * even if the process is killed. A failed `begin` refuses the request.
 */
export interface AuditTrail {
  begin(entry: AuditEntry): Promise<string>;
  end(recordId: string, outcome: AuditOutcome): Promise<void>;
}

/** What audit records show instead of a secret. */
export const maskedValue = '********';

const secretKey = /pass(word)?|secret|token|credential|authkey|authori[sz]ation|cookie|api[-_]?key|private|^key$|^auth$/i;

/**
 * A copy of a parsed body fit for the store, with the values of secret-looking keys (`password`, `secret`, `token`,
 * …) masked at any depth. Numbers JSON cannot hold (a huge literal parses to Infinity) are kept as their text.
 */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 64) return maskedValue;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = secretKey.test(key) && item !== null && item !== '' ? maskedValue : maskSecrets(item, depth + 1);
  return out;
}
