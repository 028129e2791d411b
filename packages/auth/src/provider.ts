import type { HttpContext } from '@vigie/kernel';
import type { Identity } from './access.js';

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
 * - `{ user }`: recognised; the user must have an account in `users` (`signOnExternal` makes one at first sign-on),
 *   whose state and roles are read on every request (an identity without an account is refused);
 * - `{ refused }`: credentials for this provider were given and are wrong (the reason is logged, not shown);
 * - `null`: nothing in the request concerns this provider; the next one is asked.
 */
export type ProviderOutcome = { user: Identity } | { refused: string } | null;

/** A browser sign-on through another site (CAS, SAML2): a button on the login page. */
export interface SignOn {
  /** The route that sends the browser to the identity provider. */
  readonly loginPath: string;
  /** The button's label, or null when the method is not configured (no button then). */
  label(): Promise<string | null>;
  /**
   * Where `GET /logout` sends the browser once a session this provider opened is closed, to end the user's session
   * at the identity provider too (OpenID Connect RP-initiated logout); null or absent: the login page. It may read
   * the request (a cookie the sign-on set) and change the answer (clear that cookie).
   */
  signOutUrl?(ctx: HttpContext): Promise<string | null>;
}

/** A way to authenticate, contributed to the `auth.providers` extension point. */
export interface AuthProvider {
  /** The name used in `[auth] providers`, lower case (`basic`, `authkey`, `ldap`, `cas`, `saml2`). */
  readonly name: string;
  /**
   * Switched on by its own configuration whatever `[auth] providers` says (SAML2 follows `[webservices] saml2`,
   * as the spec documents); it then comes after the listed providers.
   */
  readonly active?: boolean;
  authenticate(request: AuthRequest): Promise<ProviderOutcome>;
  /**
   * The credential this provider would read from the request (a header value, a key), or null when there is
   * none or its result must not be remembered. A user it accepts is then remembered under a keyed hash of it.
   */
  credential?(request: AuthRequest): string | null;
  /** Checks a user name and password typed in the login form (`POST /auth`); absent for providers without passwords. */
  login?(username: string, password: string): Promise<ProviderOutcome>;
  /** Present for providers that sign users on by sending the browser elsewhere. */
  readonly signOn?: SignOn;
}
