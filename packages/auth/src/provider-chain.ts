import { hash, randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type AuthenticatedUser, type HttpContext, parseBasicAuthorization, type Authenticator, type AuthOutcome, type Clock, type Extensions, type Logger } from '@vigie/kernel';
import { providerNames, type AuthConfig } from './config.js';
import type { AuthProvider, AuthRequest, ProviderOutcome } from './provider.js';
import { Sessions } from './sessions.js';
import { authProvidersPoint } from './refs.js';
import { UserRepository } from './user-repository.js';

const maxCachedCredentials = 10_000;
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
 * and directory binds are paid once per TTL rather than per request.
 */
@injectable()
export class ProviderChain implements Authenticator {
  readonly #cache = new Map<string, { outcome: AuthOutcome; expires: number }>();
  /** Keys the cache: a secret prefix makes the stored hashes useless outside this process. */
  readonly #cacheSecret = randomBytes(32).toString('base64');
  /** Verifications under way, by cache key: concurrent requests with one credential share a single check. */
  readonly #pending = new Map<string, Promise<ProviderOutcome>>();
  #providers: AuthProvider[] | undefined;

  constructor(
    @injectRef(kernelRefs.config) private readonly config: AuthConfig,
    @injectRef(kernelRefs.extensions) private readonly extensions: Extensions,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
    @inject(Sessions) private readonly sessions: Sessions,
    @inject(UserRepository) private readonly users: UserRepository,
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

  authenticate(ctx: HttpContext): AuthOutcome | Promise<AuthOutcome> {
    if (this.sessions.hasCookie(ctx)) return this.#afterSession(ctx);
    return this.#askProviders(new HttpAuthRequest(ctx), 0, false);
  }

  async #afterSession(ctx: HttpContext): Promise<AuthOutcome> {
    const user = await this.sessionUser(ctx);
    if (user) return { ok: true, user };
    return this.#askProviders(new HttpAuthRequest(ctx), 0, true);
  }

  /**
   * Asks the providers from `start` on. Answers synchronously when the first provider with a credential has it
   * remembered (the common case: no promise is spent on the request); otherwise goes on asynchronously.
   */
  #askProviders(request: HttpAuthRequest, start: number, refused: boolean): AuthOutcome | Promise<AuthOutcome> {
    const providers = this.providers();
    if (start >= providers.length) return { ok: false, reason: refused ? 'invalid' : 'missing' };
    const provider = providers[start] as AuthProvider;
    const credential = provider.credential?.(request) ?? null;
    const cacheKey = credential === null ? null : hash('sha256', `${this.#cacheSecret}\n${provider.name}\n${credential}`, 'base64');
    const cached = cacheKey === null ? undefined : this.#cache.get(cacheKey);
    const now = this.clock.nowMs();
    if (cached && cached.expires > now) return cached.outcome;
    return this.#verifyThenAsk(request, start, cacheKey, refused, now);
  }

  async #verifyThenAsk(request: HttpAuthRequest, index: number, cacheKey: string | null, refused: boolean, now: number): Promise<AuthOutcome> {
    const provider = this.providers()[index] as AuthProvider;
    const outcome = await this.verify(provider, request, cacheKey);
    if (outcome === null) return this.#askProviders(request, index + 1, refused);
    if ('refused' in outcome) {
      this.logger.info({ provider: provider.name, reason: outcome.refused, requestId: request.ctx.state.requestId }, 'authentication refused');
      return this.#askProviders(request, index + 1, true);
    }
    const accepted: AuthOutcome = { ok: true, user: outcome.user };
    if (cacheKey !== null) this.remember(cacheKey, accepted, now);
    return accepted;
  }

  /** The user of the request's live session, or null (no session, expired, or the account is gone or disabled). */
  async sessionUser(ctx: HttpContext): Promise<AuthenticatedUser | null> {
    const session = await this.sessions.find(ctx);
    if (!session) return null;
    const user = await this.users.get(session.user);
    if (!user?.enabled) return null;
    return { id: user._id, name: user._id, role: user.role, via: session.via };
  }

  /**
   * Checks a user name and password from the login form with each configured provider that takes passwords
   * (local users, LDAP), in order; the first that accepts wins.
   */
  async login(username: string, password: string, requestId: string): Promise<AuthenticatedUser | null> {
    for (const provider of this.providers()) {
      if (!provider.login) continue;
      const outcome = await provider.login(username, password);
      if (outcome === null) continue;
      if ('user' in outcome) return outcome.user;
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

  private remember(key: string, outcome: AuthOutcome, now: number): void {
    const ttl = this.config.cache_ttl_seconds * 1000;
    if (ttl === 0) return;
    if (this.#cache.size >= maxCachedCredentials) {
      const oldest = this.#cache.keys().next();
      if (!oldest.done) this.#cache.delete(oldest.value);
    }
    this.#cache.set(key, { outcome, expires: now + ttl });
  }
}
