import { createHash, randomBytes } from 'node:crypto';
import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type AuthenticatedUser, type Clock, type Collection, type Doc, type HttpContext, type FeatureStore, type VigieState } from '@vigie/kernel';
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
  /** Epoch seconds after which the session is refused, however recently it was used (`session_ttl_seconds`). */
  expires: number;
  /**
   * Epoch seconds of the last recorded use: the session is refused `session_idle_timeout_seconds` after it. Absent on
   * sessions opened before the idle timeout existed, which count from `created`.
   */
  seen?: number;
  /** The token a state-changing request made with this session must echo in `X-CSRF-Token`. */
  csrf?: string;
}

/** The cookie holding the CSRF token, readable by the page's scripts (the session cookie is not). */
export const csrfCookie = 'vigie_csrf';
/** The header a state-changing request made with the session cookie must carry, equal to the session's token. */
export const csrfHeader = 'x-csrf-token';

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Reads one cookie of the request without a cookie library (the value is opaque base64url). */
function readCookie(ctx: HttpContext, name: string): string | null {
  // Node's header map directly: most API requests carry no cookie, and Koa's getter costs more than this check.
  const header = ctx.req.headers.cookie;
  if (header === undefined) return null;
  for (const part of header.split(';')) {
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
    const idle = this.config.session_idle_timeout_seconds;
    await this.#sessions.deleteMany(idle > 0 ? { $or: [{ expires: { $lte: now } }, { seen: { $lte: now - idle } }] } : { expires: { $lte: now } });
    const token = randomBytes(32).toString('base64url');
    const csrf = randomBytes(24).toString('base64url');
    await this.#sessions.insertOne({ _id: digest(token), user: user.id, via: user.via, created: now, expires: now + this.config.session_ttl_seconds, seen: now, csrf });
    this.#setCookie(ctx, token, this.config.session_ttl_seconds);
    ctx.append('Set-Cookie', this.#cookie(csrfCookie, csrf, this.config.session_ttl_seconds, ctx, false));
  }

  /**
   * The live session the request's cookie names, or null (no cookie, unknown, expired or idle session). Finding it
   * is a use: it pushes the idle deadline back.
   */
  async find(ctx: HttpContext): Promise<SessionRecord | null> {
    const token = readCookie(ctx, this.config.session_cookie);
    if (token === null) return null;
    const record = await this.#sessions.findOne({ _id: digest(token) });
    if (!record) return null;
    const now = this.clock.nowSec();
    if (record.expires <= now) return null;
    const idle = this.config.session_idle_timeout_seconds;
    if (idle === 0) return record;
    const seen = record.seen ?? record.created;
    if (now - seen >= idle) return null;
    // The renewal is stored (so every node sees it) at most once per tenth of the timeout, not on every request:
    // a write per authenticated request would turn each read of the API into a store commit (on PostgreSQL, a
    // transaction and a notification to every node). The price: a session may end up to a tenth of the timeout
    // before `idle` seconds of disuse, never after.
    if (now - seen >= Math.max(1, Math.floor(idle / 10))) {
      await this.#sessions.updateOne({ _id: record._id, expires: { $gt: now } }, { $max: { seen: now } });
      return { ...record, seen: now };
    }
    return record;
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
    ctx.append('Set-Cookie', this.#cookie(this.config.session_cookie, value, maxAge, ctx, true));
  }

  #cookie(name: string, value: string, maxAge: number, ctx: HttpContext, httpOnly: boolean): string {
    // Behind a proxy, only a trusted one (`[server] trusted_proxies`) can say the client used HTTPS.
    const secure = this.config.secure_cookie === 'always' || (this.config.secure_cookie === 'auto' && (ctx.state as VigieState).client.secure);
    const attributes = [`${name}=${value}`, 'Path=/', `Max-Age=${maxAge}`, ...(httpOnly ? ['HttpOnly'] : []), 'SameSite=Lax'];
    if (secure) attributes.push('Secure');
    return attributes.join('; ');
  }
}
