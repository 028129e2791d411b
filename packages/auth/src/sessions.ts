import { createHash, randomBytes } from 'node:crypto';
import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type AuthenticatedUser, type Clock, type Collection, type Doc, type HttpContext, type FeatureStore } from '@vigie/kernel';
import { authConfig, type AuthConfig } from './config.js';

/** A login session as stored in `sessions`: keyed by a digest of the cookie value, never the value itself. */
export const sessionCollection = collectionRef<SessionRecord>('sessions');

export interface SessionRecord extends Doc {
  /** SHA-256 hex of the session token. */
  _id: string;
  user: string;
  /** The provider that verified the user at login (`basic`, `ldap`, `cas`, `saml2`). */
  via: string;
  created: number;
  /** Epoch seconds after which the session is refused. */
  expires: number;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Reads one cookie of the request without a cookie library (the value is opaque base64url). */
function readCookie(ctx: HttpContext, name: string): string | null {
  for (const part of ctx.get('cookie').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : null;
    }
  }
  return null;
}

/**
 * Server-side login sessions: the browser holds only a random token in an HttpOnly, SameSite=Lax cookie; the
 * store holds its digest, the user and the expiry, so sessions survive restarts and are shared by every node.
 */
@injectable()
export class Sessions {
  readonly #sessions: Collection<SessionRecord>;

  constructor(
    @injectRef(kernelRefs.store) store: FeatureStore,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(authConfig.ref) private readonly config: AuthConfig,
  ) {
    this.#sessions = store.collection(sessionCollection);
  }

  /** Opens a session for a verified user and sets its cookie on the answer. */
  async open(ctx: HttpContext, user: Pick<AuthenticatedUser, 'id' | 'via'>): Promise<void> {
    const now = this.clock.nowSec();
    await this.#sessions.deleteMany({ expires: { $lte: now } });
    const token = randomBytes(32).toString('base64url');
    await this.#sessions.insertOne({ _id: digest(token), user: user.id, via: user.via, created: now, expires: now + this.config.session_ttl_seconds });
    this.#setCookie(ctx, token, this.config.session_ttl_seconds);
  }

  /** The live session the request's cookie names, or null (no cookie, unknown or expired session). */
  async find(ctx: HttpContext): Promise<SessionRecord | null> {
    const token = readCookie(ctx, this.config.session_cookie);
    if (token === null) return null;
    const record = await this.#sessions.findOne({ _id: digest(token) });
    return record && record.expires > this.clock.nowSec() ? record : null;
  }

  /** Whether the request carries a session cookie at all (valid or not). */
  hasCookie(ctx: HttpContext): boolean {
    return readCookie(ctx, this.config.session_cookie) !== null;
  }

  /** Ends the request's session (if any) and clears its cookie. */
  async close(ctx: HttpContext): Promise<void> {
    const token = readCookie(ctx, this.config.session_cookie);
    if (token !== null) await this.#sessions.deleteOne({ _id: digest(token) });
    this.#setCookie(ctx, '', 0);
  }

  /** Ends every session of a user (identity-provider logout, account disabled or deleted). */
  async closeAllOf(user: string): Promise<number> {
    return (await this.#sessions.deleteMany({ user })).deletedCount;
  }

  #setCookie(ctx: HttpContext, value: string, maxAge: number): void {
    const secure =
      this.config.secure_cookie === 'always' ||
      (this.config.secure_cookie === 'auto' && (ctx.protocol === 'https' || ctx.get('x-forwarded-proto').split(',')[0]?.trim() === 'https'));
    const attributes = [`${this.config.session_cookie}=${value}`, 'Path=/', `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax'];
    if (secure) attributes.push('Secure');
    ctx.append('Set-Cookie', attributes.join('; '));
  }
}
