import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuthenticatedUser } from './auth.js';
import type { Doc } from './store/port.js';

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

/** How the change ended: the status answered (an error's, when the handler failed), and what it wrote. */
export interface AuditOutcome {
  status: number;
  /** Epoch milliseconds. */
  at: number;
  /** The documents written while the request was served, before and after, secrets masked (at most `auditChangeLimit`). */
  changes: AuditChange[];
  /** Documents written beyond `auditChangeLimit`, counted but not copied. */
  changesOmitted: number;
}

/**
 * A write the kernel refused before any handler ran (401, 403, 429): who tried, what, from where. `user` is the
 * account when the request authenticated; else its `id` and `via` are empty and `name` is the user name it claimed
 * (HTTP Basic), if any. `body` is null: the body of a refused request is not read.
 */
export interface AuditRefusal extends AuditEntry {
  status: number;
  /** The error's description, as answered. */
  reason: string;
}

/**
 * Where the kernel records every change made through the API (a feature provides it with `f.auditTrail`). `begin`
 * resolves once the record is durable, before the handler runs: a change can never be kept without its record,
 * even if the process is killed. A failed `begin` refuses the request.
 */
export interface AuditTrail {
  begin(entry: AuditEntry): Promise<string>;
  end(recordId: string, outcome: AuditOutcome): Promise<void>;
  /** Records a write refused by authentication, rights or throttling (one store write; nothing changed). */
  refused(refusal: AuditRefusal): Promise<void>;
}

/** What audit records show instead of a secret. */
export const maskedValue = '********';

const secretKey = /pass(word)?|secret|token|credential|authkey|authori[sz]ation|cookie|api[-_]?key|private|csrf|^key$|^auth$/i;

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

/** One document a change wrote: its state before and after (null: created, or deleted), secrets masked. */
export interface AuditChange {
  collection: string;
  id: string;
  before: unknown;
  after: unknown;
}

/** At most this many documents are copied into one audit record; further changes are only counted. */
export const auditChangeLimit = 100;
/** A document whose JSON is longer than this is recorded as its `_id` and size only. */
const auditDocumentChars = 16_384;

/** A document as an audit record keeps it: secrets masked, a copy (later writes do not alter it), size bounded. */
export function auditSnapshot(doc: Doc | null): unknown {
  if (doc === null) return null;
  const masked = maskSecrets(doc);
  const chars = JSON.stringify(masked).length;
  return chars > auditDocumentChars ? { _id: doc._id, truncated: true, chars } : masked;
}

/**
 * The documents written while one audited request is served, filled by the store each feature resolves (through
 * `recordingChanges`, an AsyncLocalStorage) and handed to the trail when the request ends. Bounded: a large import
 * keeps the first `auditChangeLimit` documents and counts the rest in `omitted`.
 */
export class AuditChangeLog {
  readonly changes: AuditChange[] = [];
  omitted = 0;
  #closed = false;

  /** `limit` 0: the writes are only counted (a route whose writes are their own record, such as the event intake). */
  constructor(private readonly limit: number = auditChangeLimit) {}

  /** How many more documents may be copied (0 once the request has ended: late writes are not its own). */
  get room(): number {
    return this.#closed ? 0 : this.limit - this.changes.length;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Records one written document from snapshots taken with `auditSnapshot`; one that did not change is skipped. */
  add(collection: string, id: string, before: unknown, after: unknown): void {
    if (this.#closed) return;
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    if (this.changes.length < this.limit) this.changes.push({ collection, id, before, after });
    else this.omitted += 1;
  }

  /** Counts documents written but not copied (beyond the limit). */
  omit(count: number): void {
    if (!this.#closed && count > 0) this.omitted += count;
  }

  close(): void {
    this.#closed = true;
  }
}

/**
 * The change log of the audited request whose work is running. Enabled only while an audited request is served:
 * on Node 20 an enabled AsyncLocalStorage runs promise hooks on every promise of the process (every request and
 * event, audited or not), which cost a read request about a tenth of its CPU once any write had been served.
 */
const auditedChanges = new AsyncLocalStorage<AuditChangeLog>();
/** Audited requests being served: the storage is disabled when the last one ends. */
let recording = 0;

/**
 * Runs `work` with `log` as the change log of the documents it (and what it awaits) writes. Writes made after every
 * audited request has ended are in no log, as they would be in a closed one: late writes are not a request's own.
 */
export async function recordingChanges(log: AuditChangeLog, work: () => Promise<void>): Promise<void> {
  recording += 1;
  try {
    await auditedChanges.run(log, work);
  } finally {
    recording -= 1;
    if (recording === 0) auditedChanges.disable();
  }
}

/** The open change log of the audited request whose work is running, if any. */
export function openChangeLog(): AuditChangeLog | undefined {
  const log = auditedChanges.getStore();
  return log === undefined || log.closed ? undefined : log;
}
