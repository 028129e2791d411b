import { hash, randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import {
  HttpError,
  injectRef,
  kernelRefs,
  secretsEqual,
  type AuthenticatedUser,
  type Authenticator,
  type AuthOutcome,
  type Clock,
  type Extensions,
  type HttpContext,
  type Logger,
  parseBasicAuthorization,
} from '@vigie/kernel';
import { tooManyLogins } from '@vigie/kernel-http';
import { AccessResolver, type Identity } from './access.js';
import { LoginThrottle } from './login-throttle.js';
import { authConfig, providerNames, type AuthConfig } from './config.js';
import type { AuthProvider, AuthRequest, ProviderOutcome } from './provider.js';
import { csrfHeader, Sessions } from './sessions.js';
import { authProvidersPoint } from './refs.js';

const maxCachedCredentials = 10_000;
/** Methods that change nothing: no CSRF token needed. */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The provider of local users over HTTP Basic, always in the chain. */
const localBasicProvider = 'basic';

/** What providers see of a request; the Basic header is decoded only if a provider asks (cache hits never do). */
class HttpAuthRequest implements AuthRequest {
  #basic: AuthRequest['basic'] | undefined;

  constructor(readonly ctx: HttpContext) {}

  get basic(): AuthRequest['basic'] {
    if (this.#basic === undefined) this.#basic = parseBasicAuthorization(this.ctx.get('authorization') || undefined);
    return this.#basic;
  }

  header(name: string): string {
    return this.ctx.get(name);
  }

  query(name: string): string | undefined {
    const value = this.ctx.query[name];
    return Array.isArray(value) ? value[0] : value;
  }
}

/**
 * The kernel's authenticator. A live login session (cookie) is checked first, whatever `[auth] providers` says:
 * only a configured provider could have opened it. Then the configured providers are asked in order until
 * one accepts. A refusal does not stop the chain (a user unknown locally may be known to the directory), and
 * providers switched on by their own configuration (SAML2) come last. A verified credential is remembered
 * for `cache_ttl_seconds` under a keyed hash of the credential (never the credential itself), so password hashing
 * and directory binds are paid once per TTL rather than per request; the account's state and rights are read on
 * every request all the same (`AccessResolver`).
 */
@injectable()
export class ProviderChain implements Authenticator {
  readonly #cache = new Map<string, { identity: Identity; expires: number }>();
  /** Keys the cache: a secret prefix makes the stored hashes useless outside this process. */
  readonly #cacheSecret = randomBytes(32).toString('base64');
  /** Verifications under way, by cache key: concurrent requests with one credential share a single check. */
  readonly #pending = new Map<string, Promise<ProviderOutcome>>();
  #providers: AuthProvider[] | undefined;

  constructor(
    @injectRef(authConfig.ref) private readonly config: AuthConfig,
    @injectRef(kernelRefs.extensions) private readonly extensions: Extensions,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
    @inject(Sessions) private readonly sessions: Sessions,
    @inject(AccessResolver) private readonly access: AccessResolver,
    @inject(LoginThrottle) private readonly throttle: LoginThrottle,
  ) {}

  /** The configured providers, in order, then those switched on by their own configuration; fails with every unknown name listed. */
  providers(): AuthProvider[] {
    if (!this.#providers) {
      const available = new Map(this.extensions.contributions(authProvidersPoint).map((p) => [p.name, p]));
      const wanted = providerNames(this.config.providers);
      const unknown = wanted.filter((name) => !available.has(name));
      if (unknown.length > 0) {
        throw new Error(`[auth] providers names unknown providers: ${unknown.join(', ')} (available: ${[...available.keys()].sort().join(', ')})`);
      }
      // Local users over HTTP Basic are always accepted, as in the original (REFERENCE §3.2): the spec's sample
      // lists (`authkey,ldap`) must not lock out the administrator who configures the directory.
      const implied = wanted.includes(localBasicProvider) ? [] : [localBasicProvider];
      const switchedOn = [...available.values()].filter((p) => p.active === true && !wanted.includes(p.name));
      this.#providers = [...[...wanted, ...implied].flatMap((name) => available.get(name) ?? []), ...switchedOn];
    }
    return this.#providers;
  }

  /**
   * The session, else the providers, say who the request is from; then its rights are read from the account (and
   * key) in the store, so that a disabled account or revoked key is refused at once, whatever was remembered.
   * A remembered credential whose grant is still current (`AccessResolver.kept`) is answered synchronously.
   */
  authenticate(ctx: HttpContext): AuthOutcome | Promise<AuthOutcome> {
    if (!this.sessions.hasCookie(ctx)) {
      const identity = this.#remembered(new HttpAuthRequest(ctx));
      const user = identity && this.access.kept(identity);
      if (user) return { ok: true, user };
    }
    return this.#authenticate(ctx);
  }

  /**
   * The identity the first provider with a credential for the request remembers for it, if it does: what
   * `#askProviders` answers without a check.
   */
  #remembered(request: HttpAuthRequest): Identity | undefined {
    for (const provider of this.providers()) {
      const credential = provider.credential?.(request) ?? null;
      if (credential === null) continue;
      const cached = this.#cache.get(this.#cacheKey(provider, credential));
      return cached && cached.expires > this.clock.nowMs() ? cached.identity : undefined;
    }
    return undefined;
  }

  #cacheKey(provider: AuthProvider, credential: string): string {
    return hash('sha256', `${this.#cacheSecret}\n${provider.name}\n${credential}`, 'base64');
  }

  async #authenticate(ctx: HttpContext): Promise<AuthOutcome> {
    if (this.sessions.hasCookie(ctx)) {
      const session = await this.sessions.find(ctx);
      const user = session ? await this.#granted(session.user, session.via) : null;
      if (session && user) {
        // A browser sends the cookie with any request, whoever's page made it: a change must also prove it read the
        // token, which only this site's pages can. Requests with Basic credentials or keys carry no cookie to ride on.
        if (!safeMethods.has(ctx.method) && (!session.csrf || !secretsEqual(ctx.get(csrfHeader), session.csrf))) {
          throw new HttpError(403, `the ${csrfHeader} header must carry the session's CSRF token (GET /api/v2/account/me gives it)`);
        }
        return { ok: true, user: { ...user, ...(session.csrf ? { csrfToken: session.csrf } : {}) } };
      }
    }
    const found = await this.#askProviders(new HttpAuthRequest(ctx), 0, this.sessions.hasCookie(ctx));
    if ('retryAfterSeconds' in found) return { ok: false, reason: 'invalid', retryAfterSeconds: found.retryAfterSeconds };
    if ('reason' in found) return { ok: false, reason: found.reason };
    const granted = await this.access.grant(found);
    if ('refused' in granted) {
      this.logger.info({ provider: found.via, reason: granted.refused, requestId: ctx.state.requestId }, 'authentication refused');
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, user: granted.user };
  }

  /** Asks the providers from `start` on; a remembered credential spares its provider the check. */
  async #askProviders(request: HttpAuthRequest, start: number, refused: boolean): Promise<Identity | { reason: 'missing' | 'invalid' } | { retryAfterSeconds: number }> {
    const providers = this.providers();
    // Passwords sent with Basic (local users, LDAP) are throttled per account and client address; remembered
    // credentials never reach this point.
    let guessed: { account: string; address: string } | undefined;
    for (let index = start; index < providers.length; index += 1) {
      const provider = providers[index] as AuthProvider;
      const credential = provider.credential?.(request) ?? null;
      const cacheKey = credential === null ? null : this.#cacheKey(provider, credential);
      const cached = cacheKey === null ? undefined : this.#cache.get(cacheKey);
      const now = this.clock.nowMs();
      if (cached && cached.expires > now) return cached.identity;
      if (guessed === undefined && request.basic && credential !== null && /^basic /i.test(credential)) {
        guessed = { account: request.basic.user, address: request.ctx.state.client.address };
        const wait = await this.throttle.waitSeconds(guessed.account, guessed.address);
        if (wait > 0) return { retryAfterSeconds: wait };
      }
      const outcome = await this.verify(provider, request, cacheKey);
      if (outcome === null) continue;
      if ('refused' in outcome) {
        this.logger.info({ provider: provider.name, reason: outcome.refused, requestId: request.ctx.state.requestId }, 'authentication refused');
        refused = true;
        continue;
      }
      if (cacheKey !== null) this.remember(cacheKey, outcome.user, now);
      if (guessed) await this.throttle.succeeded(guessed.account, guessed.address);
      return outcome.user;
    }
    if (guessed) await this.throttle.failed(guessed.account, guessed.address);
    return { reason: refused ? 'invalid' : 'missing' };
  }

  /** The user of the request's live session, or null (no session, expired, or the account is gone or disabled). */
  async sessionUser(ctx: HttpContext): Promise<AuthenticatedUser | null> {
    const session = await this.sessions.find(ctx);
    return session ? this.#granted(session.user, session.via) : null;
  }

  async #granted(account: string, via: string): Promise<AuthenticatedUser | null> {
    const granted = await this.access.grant({ id: account, name: account, via });
    return 'user' in granted ? granted.user : null;
  }

  /**
   * Checks a user name and password from the login form with each configured provider that takes passwords
   * (local users, LDAP), in order; the first that accepts wins.
   */
  async login(username: string, password: string, requestId: string, address: string): Promise<AuthenticatedUser | null> {
    const wait = await this.throttle.waitSeconds(username, address);
    if (wait > 0) throw tooManyLogins(wait);
    const user = await this.#login(username, password, requestId);
    if (user) await this.throttle.succeeded(username, address);
    else await this.throttle.failed(username, address);
    return user;
  }

  async #login(username: string, password: string, requestId: string): Promise<AuthenticatedUser | null> {
    for (const provider of this.providers()) {
      if (!provider.login) continue;
      const outcome = await provider.login(username, password);
      if (outcome === null) continue;
      if ('user' in outcome) {
        const granted = await this.access.grant(outcome.user);
        return 'user' in granted ? granted.user : null;
      }
      this.logger.info({ provider: provider.name, reason: outcome.refused, requestId }, 'login refused');
    }
    return null;
  }

  /** Whether a provider is in use (named in `[auth] providers`, or switched on by its own configuration). */
  uses(name: string): boolean {
    return this.providers().some((provider) => provider.name === name);
  }

  /** The sign-on buttons of the login page: configured providers that send the browser to an identity provider. */
  async signOnMethods(): Promise<{ provider: string; path: string; label: string }[]> {
    const methods = [];
    for (const provider of this.providers()) {
      if (!provider.signOn) continue;
      const label = await provider.signOn.label();
      if (label !== null) methods.push({ provider: provider.name, path: provider.signOn.loginPath, label });
    }
    return methods;
  }

  /** Where to send the browser after closing a session opened through `via`: the provider's sign-out, or null. */
  async signOutUrl(via: string, ctx: HttpContext): Promise<string | null> {
    const provider = this.providers().find((candidate) => candidate.name === via);
    return (await provider?.signOn?.signOutUrl?.(ctx)) ?? null;
  }

  private verify(provider: AuthProvider, request: AuthRequest, cacheKey: string | null): Promise<ProviderOutcome> {
    if (cacheKey === null) return provider.authenticate(request);
    let pending = this.#pending.get(cacheKey);
    if (!pending) {
      pending = provider.authenticate(request).finally(() => this.#pending.delete(cacheKey));
      this.#pending.set(cacheKey, pending);
    }
    return pending;
  }

  /**
   * Basic for clients such as curl; a script of a page that marks its calls (`X-Requested-With: XMLHttpRequest`, as
   * the console does) gets a scheme browsers do not prompt for, so a lapsed session reaches the page as a plain 401
   * instead of a password dialog.
   */
  challenge(ctx: HttpContext): string {
    return ctx.get('x-requested-with') === 'XMLHttpRequest' ? 'Session realm="vigie"' : 'Basic realm="vigie", charset="UTF-8"';
  }

  /** Forgets every remembered credential (a user, password or key changed). */
  forgetCredentials(): void {
    this.#cache.clear();
  }

  private remember(key: string, identity: Identity, now: number): void {
    const ttl = this.config.cache_ttl_seconds * 1000;
    if (ttl === 0) return;
    if (this.#cache.size >= maxCachedCredentials) {
      const oldest = this.#cache.keys().next();
      if (!oldest.done) this.#cache.delete(oldest.value);
    }
    this.#cache.set(key, { identity, expires: now + ttl });
  }
}
