import type { AuthenticatedUser, HttpContext } from '@vigie/kernel';

/** What a provider sees of a request. */
export interface AuthRequest {
  /** Decoded HTTP Basic credentials, or null. */
  basic: { user: string; password: string } | null;
  /** A header value ('' when absent). */
  header(name: string): string;
  /** A query parameter (first value), or undefined. */
  query(name: string): string | undefined;
  ctx: HttpContext;
}

/**
 * The answer of one provider:
 * - `{ user }`: recognised;
 * - `{ refused }`: credentials for this provider were given and are wrong (the reason is logged, not shown);
 * - `null`: nothing in the request concerns this provider; the next one is asked.
 */
export type ProviderOutcome = { user: AuthenticatedUser } | { refused: string } | null;

/** A way to authenticate, contributed to the `auth.providers` extension point. */
export interface AuthProvider {
  /** The name used in `[auth] providers`, lower case (`basic`, `authkey`, `ldap`, `cas`, `saml2`). */
  readonly name: string;
  authenticate(request: AuthRequest): Promise<ProviderOutcome>;
  /**
   * The credential this provider would read from the request (a header value, a key), or null when there is
   * none or its result must not be remembered. A user it accepts is then remembered under a keyed hash of it.
   */
  credential?(request: AuthRequest): string | null;
}
