import { inject, injectable } from 'tsyringe';
import * as client from 'openid-client';
import { injectRef, kernelRefs, type Clock, type HttpContext, type Logger } from '@vigie/kernel';
import { type SecretBox } from '@vigie/feature-kit';
import { providerChainRef, userAdministrationRef, type Identity, type ProviderChain, type UserAdministration } from '@vigie/auth';
import { claimValue, OidcClient, OidcRefusal, type VerifiedClaims } from './oidc-client.js';
import { OidcConfigRepository, type OidcSettings } from './oidc-config-repository.js';
import { logoutCookie, setCookie } from './cookies.js';
import { oidcSecretBoxRef } from './refs.js';

export const oidcPaths = { login: '/auth/oidc/login', callback: '/auth/oidc/callback' } as const;

/** Seconds a started login may take at the provider before its answer is refused. */
export const loginTtlSec = 600;
/** The logout cookie lasts as long as the longest session `[auth] session_ttl_seconds` allows; it is read only at logout. */
export const logoutHintMaxAgeSec = 31_536_000;
/** Browsers keep cookies up to about 4 KiB: a larger sealed ID token is not kept (logout then goes without the hint). */
const maxCookieValue = 3800;

/**
 * A login under way, as sealed (AES-256-GCM, the feature's SecretBox) into a cookie of the browser that started it:
 * what the provider's answer must match. Nothing is stored server-side for anonymous visitors, and any node holding
 * the same key takes the answer.
 */
interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where to go once signed on (a local path). */
  next: string;
  expires: number;
}

/** The refusal and, for a valid answer, where the browser goes next. */
export type SignOnResult = { refused: string } | { user: Identity; next: string; idToken: string };

/** A claim as a user field: a non-empty string, trimmed. */
function text(claims: VerifiedClaims, name: string): string | undefined {
  const value = claimValue(claims, name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The Vigie roles the claims grant: each value of the roles claim (a list, or one string) found in `role_map`, in the
 * map's order; `default_role` when none is. Null when the record maps no roles claim (the role is then Vigie's to
 * manage, as with CAS).
 */
function grantedRoles(settings: OidcSettings, claims: Record<string, unknown>): string[] | null {
  if (settings.claims.roles === '') return null;
  const value = claimValue(claims, settings.claims.roles);
  const held = new Set((Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string'));
  const mapped = [...new Set(settings.role_map.filter((entry) => held.has(entry.value)).map((entry) => entry.role))];
  return mapped.length > 0 ? mapped : [settings.default_role];
}

/**
 * Whether the ID token's claims are enough, or the userinfo endpoint must complete them: they must hold the user name
 * and the roles (when read), and at least one of the contact fields mapped — a token without any is one from a
 * provider that releases profile claims through userinfo only, while a user merely lacking a last name is not a reason
 * to ask the provider again at every login.
 */
function sufficientClaims(settings: OidcSettings, claims: Record<string, unknown>): boolean {
  const { name, roles, mail, firstname, lastname } = settings.claims;
  const has = (claim: string) => claimValue(claims, claim) !== undefined;
  const contact = [mail, firstname, lastname].filter((claim) => claim !== '');
  return has(name) && (roles === '' || has(roles)) && (contact.length === 0 || contact.some(has));
}

/** The OpenID Connect sign-on: send the browser to the provider, then check what it comes back with. */
@injectable()
export class OidcLogin {
  constructor(
    @inject(OidcConfigRepository) private readonly records: OidcConfigRepository,
    @inject(OidcClient) private readonly client: OidcClient,
    @injectRef(userAdministrationRef) private readonly users: UserAdministration,
    @injectRef(providerChainRef) private readonly chain: ProviderChain,
    @injectRef(oidcSecretBoxRef) private readonly secrets: SecretBox,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** The enabled settings, or null when `oidc` is not in `[auth] providers`, not configured, or disabled. */
  async enabledSettings(): Promise<OidcSettings | null> {
    if (!this.chain.uses('oidc')) return null;
    const settings = await this.records.settings();
    return settings?.enable ? settings : null;
  }

  redirectUri(settings: OidcSettings): string {
    return `${settings.service}${oidcPaths.callback}`;
  }

  /**
   * Starts a login: a fresh state, nonce and PKCE verifier, sealed into the value of the login cookie, and the
   * provider's authorization URL. Throws OidcRefusal when the provider cannot be reached.
   */
  async start(settings: OidcSettings, next: string): Promise<{ url: string; cookie: string }> {
    const pending: PendingLogin = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
      next,
      expires: this.clock.nowSec() + loginTtlSec,
    };
    const url = await this.client.authorizationUrl(settings, this.redirectUri(settings), pending);
    return { url, cookie: this.secrets.seal(JSON.stringify(pending)) };
  }

  /**
   * Takes the provider's answer (the callback's query) with the login cookie of the browser it came to (`cookie`, set
   * at `start`: an answer obtained by someone else cannot be planted in another browser), checks it, and signs its
   * user on. The code itself is single use at the provider.
   */
  async finish(settings: OidcSettings, query: URLSearchParams, cookie: string | null): Promise<SignOnResult> {
    const refuse = (reason: string, details: Record<string, unknown> = {}): SignOnResult => {
      this.logger.warn({ issuer: settings.issuer, ...details }, `OpenID Connect sign-on refused: ${reason}`);
      return { refused: reason };
    };
    if (cookie === null) return refuse('the answer is for a login this browser did not start (no login cookie)');
    let pending: PendingLogin;
    try {
      pending = JSON.parse(this.secrets.open(cookie)) as PendingLogin;
    } catch (err) {
      return refuse(`the login cookie cannot be read: ${(err as Error).message}`);
    }
    if (query.get('state') !== pending.state) return refuse('the answer is for another login than this browser’s');
    if (pending.expires <= this.clock.nowSec()) return refuse(`the login was started more than ${loginTtlSec} seconds ago`);
    const callback = new URL(this.redirectUri(settings));
    callback.search = query.toString();
    const fields = settings.claims;
    let claims: VerifiedClaims;
    let idToken: string;
    try {
      ({ claims, idToken } = await this.client.signOn(settings, callback, pending, (given) => sufficientClaims(settings, given)));
    } catch (err) {
      if (err instanceof OidcRefusal) return refuse(err.message);
      throw err;
    }
    const name = text(claims, fields.name);
    if (name === undefined) return refuse(`the claims have no ${fields.name} (the claim naming the user)`, { sub: claims.sub });
    const roles = grantedRoles(settings, claims);
    const outcome = await this.users.signOnExternal({
      name,
      via: 'oidc',
      defaultRole: settings.default_role,
      contact: { mail: text(claims, fields.mail), firstname: text(claims, fields.firstname), lastname: text(claims, fields.lastname) },
      ...(roles === null ? {} : { roles }),
    });
    if (!outcome || 'refused' in outcome) return refuse(outcome?.refused ?? 'not signed on', { user: name });
    return { user: outcome.user, next: pending.next, idToken };
  }

  /** The session's ID token sealed for the logout cookie, or null when it would not fit in a cookie. */
  sealLogoutHint(idToken: string): string | null {
    const sealed = this.secrets.seal(idToken);
    return sealed.length <= maxCookieValue ? sealed : null;
  }

  /**
   * The provider's sign-out for a session this feature opened, with the session's ID token as `id_token_hint` when the
   * logout cookie holds it (the cookie is cleared); null when not advertised, not reachable, or disabled.
   */
  async signOutUrl(ctx: HttpContext): Promise<string | null> {
    const settings = await this.enabledSettings();
    if (!settings) return null;
    const sealed = ctx.cookies.get(logoutCookie.name);
    let idTokenHint: string | null = null;
    if (sealed) {
      setCookie(ctx, settings, logoutCookie, '', 0);
      try {
        idTokenHint = this.secrets.open(sealed);
      } catch {
        // Sealed under a key since replaced, or altered: the sign-out goes without the hint.
      }
    }
    try {
      return await this.client.endSessionUrl(settings, `${settings.service}/login`, idTokenHint);
    } catch (err) {
      this.logger.warn({ issuer: settings.issuer }, `OpenID Connect sign-out skipped: ${(err as Error).message}`);
      return null;
    }
  }
}
