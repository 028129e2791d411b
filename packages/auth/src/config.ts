import { mixed, number, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { defaultPasswordHashCost } from './password.js';

/** `[auth]` of `etc/webserver.conf`. */
export const authConfigSchema = object({
  /**
   * Comma-separated provider names tried in order. The original's names (`canopsis.auth.authkey`,
   * `<product>.auth.ldap`) are accepted: only the last dotted segment counts.
   */
  providers: string().default('basic,authkey'),
  /** How long a verified credential is remembered, so hashing and directory binds are not paid per request. */
  cache_ttl_seconds: number().integer().min(0).max(3600).default(60),
  /**
   * The cost of new password hashes: scrypt's N is 2 to this power (2^15: about 30–90 ms of CPU per hash). Hashes keep
   * the cost they were made with. Test kernels lower it (`@vigie/testkit`), as a password check is paid at each start.
   */
  password_hash_cost: number().integer().min(10).max(20).default(defaultPasswordHashCost),
  /** Role of the first administrator account; also the role allowed to change identity configuration (LDAP, CAS). */
  admin_role: string().default('admin'),
  /**
   * The longest wait after failed logins (seconds): after 5 failures of one account from one address (50 from one
   * address), each further one doubles the wait, from 1 s up to this.
   */
  login_block_max_seconds: number().integer().min(1).max(86_400).default(900),
  /** How long a login session lasts, from the login (seconds; 8 hours by default). */
  session_ttl_seconds: number().integer().min(60).max(31_536_000).default(28_800),
  /**
   * How long a session may go unused before it is refused (seconds; 30 minutes by default, 0 = no idle limit). Each
   * use pushes the deadline back; `session_ttl_seconds` still ends the session however busy it is.
   */
  session_idle_timeout_seconds: number()
    .integer()
    .min(0)
    .max(604_800)
    .test('idle-timeout-floor', 'session_idle_timeout_seconds must be 0 (off) or at least 60', (value) => value === undefined || value === 0 || value >= 60)
    .default(1800),
  /** Name of the session cookie. */
  session_cookie: string()
    .matches(/^[A-Za-z0-9_-]{1,64}$/, 'session_cookie must be 1 to 64 letters, digits, _ or -')
    .default('vigie_session'),
  /**
   * When the session cookie carries `Secure`: `auto` when the request came over HTTPS (directly, or through a
   * proxy of `[server] trusted_proxies` sending `X-Forwarded-Proto: https`), `always`, or `never`.
   */
  secure_cookie: mixed<'auto' | 'always' | 'never'>().oneOf(['auto', 'always', 'never']).default('auto'),
});

export type AuthConfig = InferType<typeof authConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const authConfig = featureConfig(authConfigSchema);

/** `canopsis.auth.authkey` ⇒ `authkey`; `Basic` ⇒ `basic`. */
export function providerNames(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => (entry.split('.').pop() as string).toLowerCase());
}
