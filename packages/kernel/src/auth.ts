import { timingSafeEqual, createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Rights } from './rights.js';

/** Who made a request. `name` is what `author` fields record. */
export interface AuthenticatedUser {
  id: string;
  name: string;
  /** The first of `roles`: what events record as the sender's role and `account/me` shows. */
  role?: string;
  /** Every role the user holds. */
  roles?: readonly string[];
  /** What the user may do: the union of their roles' rights (an API key's: a subset of its owner's). */
  rights: Rights;
  /** The provider that recognised the user (`basic`, `authkey`, `ldap`, …). */
  via: string;
}

/** The outcome of an authentication attempt. */
export type AuthOutcome =
  | { ok: true; user: AuthenticatedUser }
  /** `missing`: no credentials at all; `invalid`: credentials were given and refused. */
  | { ok: false; reason: 'missing' | 'invalid'; message?: string };

/**
 * The kernel asks its authenticator about every non-public request; without one, every such request is
 * refused (fail closed).
 */
export interface Authenticator {
  /** May answer synchronously (a remembered credential): the kernel then spends no promise on the request. */
  authenticate(ctx: Context): AuthOutcome | Promise<AuthOutcome>;
  /** The `WWW-Authenticate` header sent with a 401. */
  challenge(): string;
}

/** Splits an HTTP Basic header into user and password; null when absent or malformed. */
export function parseBasicAuthorization(header: string | undefined): { user: string; password: string } | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
