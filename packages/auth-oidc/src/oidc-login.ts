import { createHash } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import * as client from 'openid-client';
import { injectRef, kernelRefs, type AuthenticatedUser, type Clock, type Collection, type Doc, type Logger, type Store } from '@vigie/kernel';
import { providerChainRef, userAdministrationRef, type ProviderChain, type UserAdministration } from '@vigie/auth';
import { claimValue, OidcClient, OidcRefusal, type VerifiedClaims } from './oidc-client.js';
import { OidcConfigRepository, type OidcSettings } from './oidc-config-repository.js';

export const oidcPaths = { login: '/auth/oidc/login', callback: '/auth/oidc/callback' } as const;

/** Seconds a started login may take at the provider before its answer is refused. */
export const loginTtlSec = 600;

/** A login under way, by digest of its `state`: what the provider's answer must match. Used once. */
interface PendingLogin extends Doc {
  _id: string;
  codeVerifier: string;
  nonce: string;
  /** Where to go once signed on (a local path). */
  next: string;
  expires: number;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The refusal and, for a valid answer, where the browser goes next. */
export type SignOnResult = { refused: string } | { user: AuthenticatedUser; next: string };

/** The user fields read from the claims. */
function text(claims: VerifiedClaims, name: string): string | undefined {
  const value = claimValue(claims, name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The Vigie roles the claims grant: each value of the roles claim (a list, or one string) found in `role_map`, in the
 * map's order; `default_role` when none is. Null when the record maps no roles claim (the role is then Vigie's to
 * manage, as with CAS).
 */
export function grantedRoles(settings: OidcSettings, claims: Record<string, unknown>): string[] | null {
  if (settings.claims.roles === '') return null;
  const value = claimValue(claims, settings.claims.roles);
  const held = new Set((Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string'));
  const mapped = [...new Set(settings.role_map.filter((entry) => held.has(entry.value)).map((entry) => entry.role))];
  return mapped.length > 0 ? mapped : [settings.default_role];
}

/** The OpenID Connect sign-on: send the browser to the provider, then check what it comes back with. */
@injectable()
export class OidcLogin {
  readonly #pending: Collection<PendingLogin>;

  constructor(
    @inject(OidcConfigRepository) private readonly records: OidcConfigRepository,
    @inject(OidcClient) private readonly client: OidcClient,
    @injectRef(userAdministrationRef) private readonly users: UserAdministration,
    @injectRef(providerChainRef) private readonly chain: ProviderChain,
    @injectRef(kernelRefs.store) store: Store,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {
    this.#pending = store.collection<PendingLogin>('oidc_logins');
  }

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
   * Starts a login: a fresh state, nonce and PKCE verifier kept in the store (so any node can take the answer), and
   * the provider's authorization URL. Throws OidcRefusal when the provider cannot be reached.
   */
  async start(settings: OidcSettings, next: string): Promise<{ url: string; state: string }> {
    const now = this.clock.nowSec();
    const checks = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
    const url = await this.client.authorizationUrl(settings, this.redirectUri(settings), checks);
    await this.#pending.deleteMany({ expires: { $lte: now } });
    await this.#pending.insertOne({ _id: digest(checks.state), codeVerifier: checks.codeVerifier, nonce: checks.nonce, next, expires: now + loginTtlSec });
    return { url, state: checks.state };
  }

  /**
   * Takes the provider's answer (the callback's query) for the browser holding `browserState` (the state cookie set at
   * `start`, so an answer cannot be planted in another browser), checks it, and signs its user on.
   */
  async finish(settings: OidcSettings, query: URLSearchParams, browserState: string | null): Promise<SignOnResult> {
    const refuse = (reason: string, details: Record<string, unknown> = {}): SignOnResult => {
      this.logger.warn({ issuer: settings.issuer, ...details }, `OpenID Connect sign-on refused: ${reason}`);
      return { refused: reason };
    };
    const state = query.get('state');
    if (state === null || state.length > 512) return refuse('the answer has no valid state');
    if (browserState !== state) return refuse('the answer is for a login this browser did not start');
    const id = digest(state);
    const pending = await this.#pending.findOne({ _id: id });
    // Deleting it first makes it single use, even when the same answer reaches two nodes at once.
    if (!pending || (await this.#pending.deleteOne({ _id: id })).deletedCount !== 1) return refuse('unknown or already used login state');
    if (pending.expires <= this.clock.nowSec()) return refuse(`the login was started more than ${loginTtlSec} seconds ago`);
    const callback = new URL(this.redirectUri(settings));
    callback.search = query.toString();
    const fields = settings.claims;
    let claims: VerifiedClaims;
    try {
      const wanted = [fields.name, fields.mail, fields.firstname, fields.lastname, fields.roles].filter((name) => name !== '');
      claims = await this.client.signOn(settings, callback, { state, nonce: pending.nonce, codeVerifier: pending.codeVerifier }, wanted);
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
    return { user: outcome.user, next: pending.next };
  }

  /** The provider's sign-out for a session this feature opened, or null (not advertised, not reachable, disabled). */
  async signOutUrl(): Promise<string | null> {
    const settings = await this.enabledSettings();
    if (!settings) return null;
    try {
      return await this.client.endSessionUrl(settings, `${settings.service}/login`);
    } catch (err) {
      this.logger.warn({ issuer: settings.issuer }, `OpenID Connect sign-out skipped: ${(err as Error).message}`);
      return null;
    }
  }
}
