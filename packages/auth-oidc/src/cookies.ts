import type { HttpContext } from '@vigie/kernel';
import type { OidcSettings } from './oidc-config-repository.js';

/** The login under way, sealed, read back by the redirect URI. */
export const loginCookie = { name: 'vigie_oidc_login', path: '/auth/oidc/callback' } as const;
/** The ID token of the session, sealed, read back by `GET /logout` as the end-session `id_token_hint`. */
export const logoutCookie = { name: 'vigie_oidc_logout', path: '/logout' } as const;

/**
 * Sets (or, with `maxAge` 0, clears) one of this feature's cookies: HttpOnly, SameSite=Lax, limited to the path that
 * reads it, and `Secure` when the service URL — the way the browser reaches Vigie — is https.
 */
export function setCookie(ctx: HttpContext, settings: OidcSettings, cookie: { name: string; path: string }, value: string, maxAge: number): void {
  const attributes = [`${cookie.name}=${value}`, `Path=${cookie.path}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax'];
  if (settings.service.startsWith('https:')) attributes.push('Secure');
  ctx.append('Set-Cookie', attributes.join('; '));
}
