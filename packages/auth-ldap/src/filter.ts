/**
 * Escapes a value for an LDAP search filter (RFC 4515 §3): `*`, `(`, `)`, `\` and NUL become `\2a`, `\28`, `\29`,
 * `\5c`, `\00`, so a user name can never add filter terms or wildcards.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * The record's `ufilter` with the escaped user name at each `%s`. A filter without its outer parentheses
 * (`uid=%s`, as the original's documentation writes it, which python-ldap accepted) gets them.
 */
export function userFilter(ufilter: string, username: string): string {
  const escaped = escapeFilterValue(username);
  const filter = ufilter.trim().startsWith('(') ? ufilter.trim() : `(${ufilter.trim()})`;
  return filter.replaceAll('%s', () => escaped);
}
