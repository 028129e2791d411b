import { RunScopedStorage, type AuditChange, type Doc } from '@vigie/kernel';

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
 * `AuditChangeLog.run`, an AsyncLocalStorage) and handed to the trail when the request ends. Bounded: a large import
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

  /**
   * Runs `work` with the store adding the documents it (and what it awaits) writes to this log. Writes made after
   * every audited request has ended are in no log, as they would be in a closed one: late writes are not a request's.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    return auditedChanges.run(this, work);
  }
}

/**
 * The change log of the audited request whose work is running. Enabled only while an audited request is served:
 * on Node 20 an enabled AsyncLocalStorage runs promise hooks on every promise of the process (every request and
 * event, audited or not), which cost a read request about a tenth of its CPU once any write had been served.
 */
const auditedChanges = new RunScopedStorage<AuditChangeLog>();

/** The open change log of the audited request whose work is running, if any. */
export function openChangeLog(): AuditChangeLog | undefined {
  const log = auditedChanges.getStore();
  return log === undefined || log.closed ? undefined : log;
}
