import { number, object, string, type InferType } from 'yup';

/** `[auth]` of `etc/webserver.conf`. */
export const authConfigSchema = object({
  /**
   * Comma-separated provider names tried in order. The original's names (`canopsis.auth.authkey`,
   * `<product>.auth.ldap`) are accepted: only the last dotted segment counts.
   */
  providers: string().default('basic,authkey'),
  /** How long a verified credential is remembered, so hashing and directory binds are not paid per request. */
  cache_ttl_seconds: number().integer().min(0).max(3600).default(60),
  /** Role of the first administrator account. */
  admin_role: string().default('admin'),
});

export type AuthConfig = InferType<typeof authConfigSchema>;

/** `canopsis.auth.authkey` ⇒ `authkey`; `Basic` ⇒ `basic`. */
export function providerNames(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => (entry.split('.').pop() as string).toLowerCase());
}
