import { createHmac, randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { KernelTokens, type HttpContext, parseBasicAuthorization, type AuthenticatedUser, type Authenticator, type AuthOutcome, type Clock, type Extensions, type Logger } from '@vigie/kernel';
import { providerNames, type AuthConfig } from './config.js';
import type { AuthProvider, AuthRequest } from './provider.js';
import { authProvidersPoint } from './tokens.js';

const maxCachedCredentials = 10_000;

/**
 * The kernel's authenticator: asks the configured providers in order until one accepts. A refusal does not
 * stop the chain (a user unknown locally may be known to the directory). A verified credential is remembered
 * for `cache_ttl_seconds` under an HMAC of the credential (never the credential itself), so password hashing
 * and directory binds are paid once per TTL rather than per request.
 */
@injectable()
export class ProviderChain implements Authenticator {
  readonly #cache = new Map<string, { user: AuthenticatedUser; expires: number }>();
  readonly #cacheSecret = randomBytes(32);
  #providers: AuthProvider[] | undefined;

  constructor(
    @inject(KernelTokens.Config) private readonly config: AuthConfig,
    @inject(KernelTokens.Extensions) private readonly extensions: Extensions,
    @inject(KernelTokens.Clock) private readonly clock: Clock,
    @inject(KernelTokens.Logger) private readonly logger: Logger,
  ) {}

  /** The configured providers, in order; fails with every unknown name listed. */
  providers(): AuthProvider[] {
    if (!this.#providers) {
      const available = new Map(this.extensions.contributions<AuthProvider>(authProvidersPoint).map((p) => [p.name, p]));
      const wanted = providerNames(this.config.providers);
      const unknown = wanted.filter((name) => !available.has(name));
      if (unknown.length > 0) {
        throw new Error(`[auth] providers names unknown providers: ${unknown.join(', ')} (available: ${[...available.keys()].sort().join(', ')})`);
      }
      if (wanted.length === 0) throw new Error('[auth] providers is empty: nobody could authenticate');
      this.#providers = wanted.map((name) => available.get(name) as AuthProvider);
    }
    return this.#providers;
  }

  async authenticate(ctx: HttpContext): Promise<AuthOutcome> {
    const request: AuthRequest = {
      basic: parseBasicAuthorization(ctx.get('authorization') || undefined),
      header: (name) => ctx.get(name),
      query: (name) => {
        const value = ctx.query[name];
        return Array.isArray(value) ? value[0] : value;
      },
      ctx,
    };
    const now = this.clock.nowMs();
    let refused = false;
    for (const provider of this.providers()) {
      const credential = provider.credential?.(request) ?? null;
      const cacheKey = credential === null ? null : createHmac('sha256', this.#cacheSecret).update(`${provider.name}\n${credential}`).digest('base64');
      const cached = cacheKey === null ? undefined : this.#cache.get(cacheKey);
      if (cached && cached.expires > now) return { ok: true, user: cached.user };
      const outcome = await provider.authenticate(request);
      if (outcome === null) continue;
      if ('refused' in outcome) {
        refused = true;
        this.logger.info({ provider: provider.name, reason: outcome.refused, requestId: ctx.state.requestId }, 'authentication refused');
        continue;
      }
      if (cacheKey !== null) this.remember(cacheKey, outcome.user, now);
      return { ok: true, user: outcome.user };
    }
    return { ok: false, reason: refused ? 'invalid' : 'missing' };
  }

  challenge(): string {
    return 'Basic realm="vigie", charset="UTF-8"';
  }

  /** Forgets every remembered credential (a user, password or key changed). */
  forgetCredentials(): void {
    this.#cache.clear();
  }

  private remember(key: string, user: AuthenticatedUser, now: number): void {
    const ttl = this.config.cache_ttl_seconds * 1000;
    if (ttl === 0) return;
    if (this.#cache.size >= maxCachedCredentials) {
      const oldest = this.#cache.keys().next();
      if (!oldest.done) this.#cache.delete(oldest.value);
    }
    this.#cache.set(key, { user, expires: now + ttl });
  }
}
