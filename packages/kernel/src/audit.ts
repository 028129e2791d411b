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
  /** Counted in its minute's record for its user, client and route (`audit: 'tally'` on the route), not recorded alone. */
  tally?: boolean;
}

/** How the change ended: the status answered (an error's, when the handler failed), and what it wrote. */
export interface AuditOutcome {
  status: number;
  /** Epoch milliseconds. */
  at: number;
  /** The documents written while the request was served, before and after, secrets masked (at most `auditChangeLimit` of `@vigie/kernel-http`). */
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

/** One document a change wrote: its state before and after (null: created, or deleted), secrets masked. */
export interface AuditChange {
  collection: string;
  id: string;
  before: unknown;
  after: unknown;
}
